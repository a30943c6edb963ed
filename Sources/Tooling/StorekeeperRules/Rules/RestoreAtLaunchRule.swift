import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Restoring at every launch interrupts the user.
struct RestoreAtLaunchRule: CatalogRule {
    static let description = RuleDescription(
        id: "restore-at-launch",
        severity: .warning,
        summary: "Restore from a Restore Purchases button, not at every launch.",
        rationale: """
            Restoring through the App Store (`receipt-refresh`, `restore-transactions`) asks for \
            the user's App Store credentials, which interrupts the app; offer a Restore Purchases \
            button instead, and never restore that way at every launch (Restoring Purchased \
            Products). Restoring from your server or iCloud asks nothing of the App Store.
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
                    restore: {policy: receipt-refresh, trigger: ↓launch}
                """),
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
                    restore: {policy: receipt-refresh, trigger: user}
                """),
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: server
                    restore: {policy: server, trigger: launch}
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        let products = catalog.products
        // Only the App Store's own restores ask for credentials; your server or iCloud does not.
        for index in products.indices where products[index].restore.trigger?.value == .launch && products[index].restore.asksForCredentials {
            let product = products[index]
            guard let trigger = product.restore.trigger else { continue }
            report.report(
                "restoring at every launch asks for the user's credentials each time; restore \(product.id.value) from a Restore Purchases button (`trigger: user`)",
                at: trigger, notes: inheritanceNotes(product, inherited: product.restore.isInherited))
        }
    }
}
