import StorekeeperCore
import StorekeeperPolicy

/// A purchasing or deferred transaction is not done yet.
struct FinishWhilePendingRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.finishWhilePending.id,
        severity: PlanCheck.finishWhilePending.severity,
        summary: "`purchasing` and `deferred` plans do not finish.",
        rationale: """
            A transaction that is purchasing or deferred (waiting for Ask to Buy) is still in \
            progress: the queue will update it again when it completes, and finishing it now is \
            not allowed; update the interface and wait (Delivering Products: Waiting for the App \
            Store to Process Transactions).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: give-up-waiting
                    when: {state: deferred}
                    do: [notify, ↓finish]
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: explain-ask-to-buy
                    when: {state: deferred}
                    do: [notify]
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .finishWhilePending))
    }
}
