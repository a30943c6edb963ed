import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// A consumable cannot be recorded by the receipt.
struct ConsumablePersistenceRule: CatalogRule {
    static let description = RuleDescription(
        id: "consumable-persistence",
        severity: .error,
        summary: "A consumable's persistence must not be `receipt`.",
        rationale: """
            A consumable stays in the app receipt only until its transaction is finished: the \
            next time the receipt is updated (the next purchase, say) its entry is gone, so the \
            receipt cannot be the record of what the user still has; keep it in the app's own \
            state, on your server, or in iCloud (Delivering Products: Persisting the Purchase).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: ↓receipt
                    restore: none
                """),
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: {strategy: ↓receipt}
                    restore: none
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: server, grants: {coins: 100}}
                    persistence: server
                    restore: none
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        let products = catalog.products
        for index in products.indices where products[index].type.value == .consumable && products[index].persistence.strategy.value == .receipt {
            let product = products[index]
            report.report(
                "a consumable leaves the receipt after its transaction is finished, so the receipt cannot record it; keep \(product.id.value) in `app-state`, `server` or `icloud`",
                at: product.persistence.strategy, notes: inheritanceNotes(product, inherited: product.persistence.isInherited))
        }
    }
}
