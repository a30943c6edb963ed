import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// A device identifier cannot restore purchases on another device.
struct ServerIdentityRule: CatalogRule {
    static let description = RuleDescription(
        id: "server-identity",
        severity: .error,
        summary: "The server identifies users by `account`, not `device`.",
        rationale: """
            Purchases are restored on the user's other and new devices; a record keyed by a device \
            identifier cannot be found from another device, so restoring would return nothing \
            (Restoring Purchased Products; Delivering Products: Persisting the Purchase).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """, server: #"server: {url: "https://store.example.com", identity: ↓device}"#),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        guard let identity = catalog.server?.identity, identity.value == .device else { return }
        report.report("a device identifier cannot find a user's purchases from another device; write `identity: account`", at: identity)
    }
}
