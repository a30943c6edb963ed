import StorekeeperCore
import StorekeeperPolicy

/// A transaction is finished only after the purchase is delivered.
struct FinishBeforeDeliveryRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.finishBeforeDelivery.id,
        severity: PlanCheck.finishBeforeDelivery.severity,
        summary: "A plan finishes last: after it verifies, downloads, persists, unlocks, grants and notifies.",
        rationale: """
            Finishing a transaction removes it from the queue for good: if the app dies after \
            `finish` but before the purchase is downloaded, recorded and made available, the user \
            has paid for nothing and the store will never deliver it again. Finish only after the \
            purchase is persisted, its content downloaded and it is shown, and take no built-in \
            step after it (a plugin's step, such as an audit log, may follow); a plan may not drop \
            a step its default plan takes, `verify-receipt` included (Delivering Products: \
            Finishing the Transaction).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: early-finish
                    when: {state: purchased}
                    do: [notify, finish, ↓persist, ↓grant]
                """),
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: forgetful
                    when: {state: purchased}
                    do: [notify, ↓finish]
                """),
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: late-news
                    when: {state: purchased}
                    add: {after: finish, steps: [↓notify, audit-log]}
                """, extraSteps: ["audit-log"]),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: celebrate
                    when: {state: purchased}
                    do: [persist, grant, notify, notify, finish]
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .finishBeforeDelivery))
    }
}
