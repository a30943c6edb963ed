import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy

/// A custom rule that a more specific one always overrides does nothing.
struct ShadowedRuleRule: CatalogRule {
    static let description = RuleDescription(
        id: "shadowed-rule",
        severity: .warning,
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
        let rules = context.catalog.rules
        for problem in context.policy.problems {
            guard case .neverApplies(let winner) = problem.kind else { continue }
            let rule = rules[problem.rule], other = rules[winner]
            report.report(
                "rule '\(rule.name.value)' never applies: every plan it matches goes to the more specific rule '\(other.name.value)' (rules are not combined); narrow one of them, or move these steps into '\(other.name.value)'",
                at: SourceRange(start: rule.condition.location),
                notes: [Diagnostic.Note("'\(other.name.value)' wins here", at: other.condition.location)])
        }
    }
}
