import StorekeeperCore
import StorekeeperPolicy

/// Every completed transaction is finished.
struct PlanNeverFinishesRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.planNeverFinishes.id,
        severity: PlanCheck.planNeverFinishes.severity,
        summary: "`purchased`, `restored` and `failed` plans end with `finish`.",
        rationale: """
            A transaction that is never finished stays in the queue: the store delivers it again \
            at every launch, and the app handles the same purchase over and over (Delivering \
            Products: Finishing the Transaction).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: keep-failures
                    when: {state: failed}
                    do: [↓present-error]
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: keep-failures
                    when: {state: failed}
                    do: [present-error, finish]
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .planNeverFinishes))
    }
}
