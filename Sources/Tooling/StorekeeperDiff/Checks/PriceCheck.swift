import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A product's price changed.
    public static let price = DiffCheck(
        id: "diff-price",
        severity: .note,
        summary: "A price change is noted, with the old and new price.",
        rationale: """
            A new price takes nothing from people who already bought: what they paid for stays theirs. It \
            is worth a second look in review all the same, and for auto-renewable subscriptions it reaches \
            current subscribers: per Apple's App Store Connect answers on auto-renewable subscriptions, a \
            lower price applies at their next renewal, and a higher one either is kept from existing \
            subscribers (you choose that in App Store Connect) or is shown to them first, and those who do \
            not agree before their renewal date stop renewing. A note never fails a run.
            """,
        triggering: [
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
                    price: ↓"3.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
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
                    price: "3"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "3.00"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for pair in context.pairs {
            let old = pair.old.price, new = pair.new.price
            guard old.value != new.value else { continue }
            var message = "'\(pair.id)' costs \(new.value) now, \(old.value) before: people who already bought keep what they bought"
            if pair.new.type.value == .autoRenewableSubscription, pair.sameType {
                message += new.value < old.value
                    ? "; current subscribers renew at the lower price"
                    : "; current subscribers either keep their price (if you choose so in App Store Connect) or are asked to agree to the new one, and stop renewing if they do not"
            }
            report.report(message + " (docs/diff.md#diff-price)", at: new, notes: [DiffNotes.was("price: \(old.value)", at: old)])
        }
    }
}
