import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy

/// A transaction is finished only after the purchase is delivered.
struct FinishBeforeDeliveryRule: CatalogRule {
    static let description = RuleDescription(
        id: "finish-before-delivery",
        severity: .error,
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
        let rules = context.catalog.rules
        for problem in context.policy.problems {
            let rule = rules[problem.rule]
            let plan = "the \(problem.situation) plan of \(problem.product)\(PlanWording.more(problem))"
            switch problem.kind {
            case .finishesBeforeDelivery(let step, let stepAt, let finishAt):
                // Both places are known: report at the later one (the step), note the finish.
                let finish = finishAt.map { [Diagnostic.Note("it finishes here", at: $0.start)] } ?? []
                report.report("rule '\(rule.name.value)' makes \(plan) `\(step.rawValue)` after `finish`; \(BuiltInStep.delivering.contains(step) ? "a finished transaction is gone if the app dies now" : "a finished transaction is over"), so move `finish` last", at: stepAt, notes: finish)
            case .finishesWithout(let steps, let finishAt):
                let names = steps.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                report.report("rule '\(rule.name.value)' makes \(plan) finish without \(names), so the purchase would be lost; add \(steps.count == 1 ? "it" : "them") before `finish`", at: finishAt)
            default:
                continue
            }
        }
    }
}
