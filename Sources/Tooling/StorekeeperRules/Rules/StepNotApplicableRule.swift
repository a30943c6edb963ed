import StorekeeperCore
import StorekeeperPolicy

/// A step must be able to do something for the product.
struct StepNotApplicableRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.stepNotApplicable.id,
        severity: PlanCheck.stepNotApplicable.severity,
        summary: "A custom rule's steps apply to every product and state it matches.",
        rationale: """
            A step that cannot apply (a `download` for a product with no content, a `grant` for a \
            product with no balance, `present-error` when nothing failed) would fail at run time, \
            with the transaction unfinished; it is an error in the catalog instead (Delivering \
            Products: Delivering Associated Content; Finishing the Transaction).
            """,
        triggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: fetch-extras
                    when: {type: consumable, state: purchased}
                    add: {before: persist, steps: [↓download]}
                """),
        ],
        nonTriggering: [
            RuleExample(UnknownStepRule.coins, header: """
                rules:
                  - name: tell-twice
                    when: {type: consumable, state: purchased}
                    add: {before: persist, steps: [notify]}
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .stepNotApplicable))
    }
}
