import StorekeeperCore
import StorekeeperPolicy

/// A custom rule that a more specific one always overrides does nothing.
struct ShadowedRuleRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.shadowedRule.id,
        severity: PlanCheck.shadowedRule.severity,
        summary: "Every custom rule changes at least one plan.",
        rationale: """
            The most specific matching rule changes a plan, and rules are not combined; a rule \
            whose every plan goes to a more specific one never applies, and what its author meant \
            to happen on those transactions does not happen (Delivering Products). Narrow or \
            remove one of the two, or fold the steps into the rule that wins.
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: every-purchase
                    when: {product: "*", state: purchased}
                    add: {after: persist, steps: [notify]}
                  - name: consumables
                    when: ↓{type: consumable, state: purchased}
                    add: {before: finish, steps: [notify]}
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: consumables
                    when: {type: consumable, state: purchased}
                    add: {before: finish, steps: [notify]}
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .shadowedRule))
    }
}
