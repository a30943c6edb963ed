import StorekeeperCore
import StorekeeperPolicy

/// Two custom rules must not compete for one plan.
struct AmbiguousRulesRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.ambiguousRules.id,
        severity: PlanCheck.ambiguousRules.severity,
        summary: "Two equally specific custom rules must not match the same plan.",
        rationale: """
            The most specific rule changes a plan: a product id beats a pattern, a pattern a type, \
            a type the other conditions; then the rule naming more of state, delivery and error. \
            When two rules are equally specific, which one a transaction follows would depend on \
            their order in the file, and a reordering would silently change how purchases are \
            delivered and finished (Delivering Products: Finishing the Transaction).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: quiet-cancel
                    when: {state: failed}
                    do: [finish]
                  - name: log-failures
                    when: ↓{state: failed}
                    do: [present-error, notify, finish]
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: quiet-cancel
                    when: {state: failed, error: payment-cancelled}
                    do: [finish]
                  - name: log-failures
                    when: {state: failed}
                    do: [present-error, notify, finish]
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .ambiguousRules))
    }
}
