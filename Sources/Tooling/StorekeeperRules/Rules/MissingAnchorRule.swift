import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy

/// `add` inserts next to a step the plan has.
struct MissingAnchorRule: CatalogRule {
    static let description = RuleDescription(
        id: "missing-anchor",
        severity: .error,
        summary: "`add` inserts before or after a step that every matching plan has.",
        rationale: """
            A rule that inserts steps next to a step the plan does not have cannot say where they \
            go, so it would silently do nothing for that product, and what the author meant to \
            happen on every purchase would not (Delivering Products).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: after-download
                    when: {state: purchased}
                    add: {after: ↓download, steps: [notify]}
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: after-persist
                    when: {state: purchased}
                    add: {after: persist, steps: [notify]}
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        for problem in context.policy.problems {
            guard case .missingAnchor(let step, let at) = problem.kind else { continue }
            let rule = context.catalog.rules[problem.rule]
            report.report(
                "rule '\(rule.name.value)' inserts next to `\(step)`, but the \(problem.situation) plan of \(problem.product)\(PlanWording.more(problem)) has no `\(step)` step; narrow the rule's `when` to products whose plans have it, or insert next to another step",
                at: at)
        }
    }
}
