import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy

/// Every completed transaction is finished.
struct PlanNeverFinishesRule: CatalogRule {
    static let description = RuleDescription(
        id: "plan-never-finishes",
        severity: .error,
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
        for problem in context.policy.problems {
            guard case .neverFinishes(let at) = problem.kind else { continue }
            let rule = context.catalog.rules[problem.rule]
            report.report(
                "rule '\(rule.name.value)' leaves the \(problem.situation) plan of \(problem.product)\(PlanWording.more(problem)) without `finish`, so the transaction would come back at every launch; end the steps with `finish`",
                at: at)
        }
    }
}
