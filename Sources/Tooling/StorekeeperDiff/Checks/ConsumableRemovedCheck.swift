import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A consumable is gone from the new catalog.
    public static let consumableRemoved = DiffCheck(
        id: "diff-consumable-removed",
        severity: .warning,
        summary: "A consumable leaves the catalog only after it has been off sale long enough for pending purchases to finish.",
        rationale: """
            Nobody owns a consumable for good, and what it granted stays in the balances people hold, so \
            removing one is not a loss in itself. But a purchase can still be on its way: one interrupted \
            before it was delivered, or one waiting for Ask to Buy, arrives at a later launch \
            (Delivering Products: Waiting for the App Store to Process Transactions). If the catalog no \
            longer has the product, that paid purchase halts undelivered (docs/queue.md). Remove it from \
            sale in App Store Connect first, and from the catalog a release later.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: ↓com.example.coins
                    type: consumable
                    reference-name: Coins
                    price: "0.99"
                    localizations: {en-US: {title: Coins, description: A bag of coins}}
                    delivery: {model: built-in, grants: {coins: 100}}
                    persistence: app-state
                    restore: none
                  - id: com.example.gems
                    type: consumable
                    reference-name: Gems
                    price: "1.99"
                    localizations: {en-US: {title: Gems, description: A pouch of gems}}
                    delivery: {model: built-in, grants: {gems: 10}}
                    persistence: app-state
                    restore: none
                """,
                new: """
                  - id: com.example.gems
                    type: consumable
                    reference-name: Gems
                    price: "1.99"
                    localizations: {en-US: {title: Gems, description: A pouch of gems}}
                    delivery: {model: built-in, grants: {gems: 10}}
                    persistence: app-state
                    restore: none
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
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
                  - id: com.example.gems
                    type: consumable
                    reference-name: Gems
                    price: "1.99"
                    localizations: {en-US: {title: Gems, description: A pouch of gems}}
                    delivery: {model: built-in, grants: {gems: 10}}
                    persistence: app-state
                    restore: none
                """),
        ]
    ) { context, report in
        for product in context.removed where product.type.value == .consumable {
            report.report(
                "'\(product.id.value)' (consumable) is gone from the new catalog: what it granted stays, but a purchase of it still on its way (interrupted, or waiting for Ask to Buy) would arrive for a product the catalog no longer has and halt undelivered; remove it from sale in App Store Connect first and from the catalog a release later (docs/diff.md#diff-consumable-removed)",
                at: product.id)
        }
    }
}
