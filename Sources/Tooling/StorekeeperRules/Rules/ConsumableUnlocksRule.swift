import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// What a consumable unlocks is lost with it.
struct ConsumableUnlocksRule: CatalogRule {
    static let description = RuleDescription(
        id: "consumable-unlocks",
        severity: .warning,
        summary: "A consumable grants balances; it does not unlock features.",
        rationale: """
            A consumable is used up: once its transaction is finished the App Store keeps no record \
            of it and nothing restores it, so a feature it unlocks is gone on the user's new device \
            or after a reinstall, though the app's functionality is meant to stay unlocked \
            (Delivering Products: Persisting the Purchase, Unlocking App Functionality; Restoring \
            Purchased Products). Sell a feature as a non-consumable or a subscription; a consumable \
            adds to a balance.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, unlocks: [↓pro, extra], grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """),
            RuleExample("""
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    persistence: app-state
                    restore: none
                """, header: "defaults: {delivery: {model: built-in, unlocks: [↓pro]}}"),
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
        for index in products.indices where products[index].type.value == .consumable && !products[index].delivery.unlocks.isEmpty {
            let product = products[index]
            guard let feature = product.delivery.unlocks.first else { continue }
            let features = product.delivery.unlocks.map(\.value).joined(separator: ", ")
            let what = product.delivery.unlocks.count == 1 ? "the feature it unlocks (\(features))" : "the features it unlocks (\(features))"
            report.report(
                "\(product.id.value) is a consumable, used up and never restored, so \(what) would be lost on a new device or after a reinstall; unlock features with a non-consumable or a subscription, and let the consumable grant a balance",
                at: feature, notes: inheritanceNotes(product, inherited: product.delivery.isInherited))
        }
    }
}
