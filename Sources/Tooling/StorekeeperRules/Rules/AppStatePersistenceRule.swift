import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Only a consumable may live in the app's own state.
struct AppStatePersistenceRule: CatalogRule {
    static let description = RuleDescription(
        id: "app-state-persistence",
        severity: .warning,
        summary: "`app-state` persistence is for consumables.",
        rationale: """
            The app's own preserved state is enough for a consumable, which is used up and never \
            restored; a non-consumable or an auto-renewable subscription needs a record that \
            outlives the app, because the purchase is restored on a reinstall and on the user's \
            other devices, and the app's state is lost with the app (Delivering Products: \
            Persisting the Purchase; Restoring Purchased Products). Non-renewing subscriptions are \
            left to `non-renewing-record`, which asks for `server` or `icloud`.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: ↓app-state
                    restore: receipt-refresh
                """),
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro]}
                    restore: receipt-refresh
                """, header: "defaults: {persistence: ↓app-state}"),
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
        // By index, reading fields in place: copying every product costs more than the check.
        let products = context.catalog.products
        for index in products.indices where products[index].persistence.strategy.value == .appState {
            let type = products[index].type.value
            guard type == .nonConsumable || type == .autoRenewableSubscription else { continue }
            let product = products[index]
            let kind = type == .nonConsumable ? "a non-consumable" : "an auto-renewable subscription"
            report.report(
                "the app's own state is lost with the app and is not on the user's other devices, so it cannot record \(product.id.value), \(kind); persist it with `receipt`, `server` or `icloud`",
                at: product.persistence.strategy, notes: inheritanceNotes(product, inherited: product.persistence.isInherited))
        }
    }
}
