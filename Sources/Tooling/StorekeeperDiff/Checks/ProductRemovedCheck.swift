import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A product people own is gone from the new catalog.
    public static let productRemoved = DiffCheck(
        id: "diff-product-removed",
        severity: .error,
        summary: "A non-consumable or subscription people may own is not removed from the catalog.",
        rationale: """
            The App Store keeps non-consumables and auto-renewable subscriptions in the receipt for good, \
            and the app keeps its records of non-renewing ones (Delivering Products: Persisting the Purchase). \
            Those records still name the product after it leaves the catalog, but the app no longer knows it: \
            it stops counting as the buyer's, and a restored or renewed transaction for it halts undelivered \
            (docs/queue.md: a transaction for a product not in the catalog halts). A product id cannot be \
            renamed either: a new id is a new product that nobody owns. Keep the product in the catalog and \
            remove it from sale in App Store Connect instead.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: ↓com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """,
                new: """
                  - id: com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                """),
            DiffExample(
                old: """
                  - id: ↓com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.month
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.truck
                    type: non-consumable
                    reference-name: Hover Truck
                    price: "2.99"
                    localizations: {en-US: {title: Hover Truck, description: Glide over water}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for product in context.removed where product.type.value.isOwned {
            let id = product.id.value
            var notes: [Diagnostic.Note] = []
            // A new product under the same reference name is most likely a renamed id.
            if let successor = context.added.first(where: { $0.referenceName.value == product.referenceName.value }) {
                notes.append(Diagnostic.Note(
                    "'\(successor.id.value)' has the same reference name; a product id cannot be renamed: people who bought '\(id)' own nothing under '\(successor.id.value)'",
                    at: successor.id.location))
            }
            report.report(
                "'\(id)' (\(product.type.value.rawValue)) is gone from the new catalog, but people who bought it own it: their receipts and records still name it, the app no longer counts it as theirs, and restored\(product.type.value == .autoRenewableSubscription ? " or renewed" : "") transactions for it halt undelivered; keep it in the catalog and remove it from sale in App Store Connect instead (docs/diff.md#diff-product-removed)",
                at: product.id, notes: notes)
        }
    }
}
