import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Consumables are not restored.
struct ConsumableRestoreRule: CatalogRule {
    static let description = RuleDescription(
        id: "consumable-restore",
        severity: .error,
        summary: "A consumable's restore policy must be `none`.",
        rationale: """
            Consumables are used up: once a consumable's transaction is finished, the App Store \
            keeps no record of it, so neither refreshing the receipt nor restoring completed \
            transactions brings it back, and nothing should promise to (Delivering Products: \
            Persisting the Purchase; Restoring Purchased Products).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: ↓receipt-refresh
                """),
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                """, header: "defaults: {restore: ↓restore-transactions}"),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        let products = catalog.products
        for index in products.indices where products[index].type.value == .consumable && products[index].restore.policy.value != .none {
            let product = products[index]
            report.report(
                "a consumable is not restored (the App Store keeps no record of it once finished); write `restore: none` for \(product.id.value)",
                at: product.restore.policy, notes: inheritanceNotes(product, inherited: product.restore.isInherited))
        }
    }
}
