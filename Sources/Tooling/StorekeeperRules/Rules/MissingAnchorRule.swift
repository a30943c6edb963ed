import StorekeeperCore
import StorekeeperPolicy

/// `add` inserts next to a step the plan has.
struct MissingAnchorRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.missingAnchor.id,
        severity: PlanCheck.missingAnchor.severity,
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
        report.report(context.policy.diagnostics(of: .missingAnchor))
    }
}
