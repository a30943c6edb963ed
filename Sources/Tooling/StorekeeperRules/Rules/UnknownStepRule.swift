import StorekeeperCore
import StorekeeperPolicy

/// A custom rule may only name steps the engine can run.
struct UnknownStepRule: CatalogRule {
    static let description = RuleDescription(
        id: PlanCheck.unknownStep.id,
        severity: PlanCheck.unknownStep.severity,
        summary: "Custom rules name only built-in steps and steps that plugins register.",
        rationale: """
            The engine runs each step of a plan by name; a step it does not know could never run, \
            so the transaction would stop there, unfinished, and come back at every launch \
            (In-App Purchase overview: the transaction queue; Delivering Products: Finishing the \
            Transaction). Built-in steps: notify, verify-receipt, download, persist, unlock, \
            grant, finish, present-error; plugins add theirs (list them under `steps` in \
            storekeeper.yml).
            """,
        triggering: [
            RuleExample(Self.coins, header: """
                rules:
                  - name: log-purchases
                    when: {state: purchased}
                    add: {after: ↓persit, steps: [↓audit-log]}
                """),
        ],
        nonTriggering: [
            RuleExample(Self.coins, header: """
                rules:
                  - name: log-purchases
                    when: {state: purchased}
                    add: {after: persist, steps: [audit-log]}
                """, extraSteps: ["audit-log"]),
        ])

    static let coins = """
          - id: com.example.coins
            type: consumable
            reference-name: Coins
            price: "0.99"
            localizations: {en-US: {title: Coins, description: A bag of coins}}
            delivery: {model: built-in, grants: {coins: 100}}
            persistence: app-state
            restore: none
        """

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        report.report(context.policy.diagnostics(of: .unknownStep))
    }
}
