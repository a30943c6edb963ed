import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A product's type changed.
    public static let productType = DiffCheck(
        id: "diff-product-type",
        severity: .error,
        summary: "A product keeps the type people bought it as.",
        rationale: """
            The type decides what the store and the app do with a purchase after it is made: a \
            non-consumable or auto-renewable subscription stays in the receipt for good, a consumable or \
            non-renewing subscription leaves it once finished, only non-consumables and subscriptions are \
            restored (Delivering Products: Persisting the Purchase; Restoring Purchased Products). People \
            who bought the old type were promised what it does; a non-consumable made consumable, for \
            instance, is no longer restored, so its owners lose it on their next device. App Store Connect \
            does not change the type of an existing product either. Keep the product as it is, and sell the \
            new kind under a new id.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.hints
                    type: non-consumable
                    reference-name: Hint Pack
                    price: "0.99"
                    localizations: {en-US: {title: Hint Pack, description: Ten hints}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.hints
                    type: ↓consumable
                    reference-name: Hint Pack
                    price: "0.99"
                    localizations: {en-US: {title: Hint Pack, description: Ten hints}}
                    delivery: {model: built-in, grants: {coins: 10}}
                    persistence: app-state
                    restore: none
                """),
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: ↓auto-renewable-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    group: premium
                    period: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.hints
                    type: non-consumable
                    reference-name: Hint Pack
                    price: "0.99"
                    localizations: {en-US: {title: Hint Pack, description: Ten hints}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.hints
                    type: non-consumable
                    reference-name: Hint Pack
                    price: "0.99"
                    localizations: {en-US: {title: Hint Pack, description: Ten hints}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.hints.refill
                    type: consumable
                    reference-name: Hint Refill
                    price: "0.99"
                    localizations: {en-US: {title: Hint Refill, description: Ten more hints}}
                    delivery: {model: built-in, grants: {coins: 10}}
                    persistence: app-state
                    restore: none
                """),
        ]
    ) { context, report in
        for pair in context.pairs where !pair.sameType {
            let old = pair.old.type.value, new = pair.new.type.value
            report.report(
                "'\(pair.id)' changed from \(old.rawValue) to \(new.rawValue): people who bought it hold \(old.withArticle), and \(ProductTypeChange.consequence(from: old, to: new)); App Store Connect does not change a product's type: keep '\(pair.id)' as \(old.rawValue) and sell the new kind under a new id (docs/diff.md#diff-product-type)",
                at: pair.new.type, notes: [DiffNotes.was("type: \(old.rawValue)", at: pair.old.type)])
        }
    }
}

/// What a change of type does to people who bought the old type.
enum ProductTypeChange {
    static func consequence(from old: ProductType, to new: ProductType) -> String {
        switch (old, new) {
        case (_, .consumable):
            "a consumable is never restored and leaves the receipt once finished, so they lose it on their next device"
        case (.consumable, _):
            "finished consumable purchases have left the receipt, so nothing shows that they bought it and a restore brings them nothing"
        case (.nonConsumable, .autoRenewableSubscription):
            "a subscription ends when it stops renewing, and a one-time purchase never renews, so theirs would end after one period"
        case (.nonConsumable, .nonRenewingSubscription):
            "a non-renewing subscription ends its duration after the purchase date, so most of them would have lost it already"
        case (.autoRenewableSubscription, .nonConsumable):
            "the store goes on renewing their subscriptions in their group, for a product the catalog says never renews"
        case (.autoRenewableSubscription, .nonRenewingSubscription):
            "the store goes on renewing their subscriptions, while the catalog says the app keeps and restores the record"
        case (.nonRenewingSubscription, .nonConsumable), (.nonRenewingSubscription, .autoRenewableSubscription):
            "their passes were recorded by the app, not the receipt (which drops them once finished), so a restore through the store does not find them"
        default:
            "what the store and the app do with their purchase changes"
        }
    }
}
