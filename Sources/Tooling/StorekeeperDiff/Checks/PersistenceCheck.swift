import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A product's records move to where the existing ones are not.
    public static let persistence = DiffCheck(
        id: "diff-persistence",
        severity: .error,
        summary: "A product's persistence strategy changes only to one that finds the records already kept.",
        rationale: """
            The app reads its record of a purchase at launch and when restoring (Delivering Products: \
            Persisting the Purchase), and it reads it where the strategy says: the queue reads a product's \
            records only from its current strategy's store (docs/queue.md: Where records live). Records kept \
            the old way are not moved by a catalog change: flags in user defaults are not in iCloud, and \
            your server has no record of people who bought while the receipt was the record. The one safe \
            move is to `receipt` for a non-consumable or an auto-renewable subscription, since the receipt \
            lists every such purchase for good. Otherwise keep the strategy, or ship a release that copies \
            the existing records to the new place before the catalog changes. Consumables are not checked: \
            they are never restored, and the balances they granted are the app's own state.
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
                    persistence: user-defaults
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: ↓icloud
                    restore: receipt-refresh
                """),
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: ↓server
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
                    persistence: user-defaults
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
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            let old = pair.old.persistence.strategy, new = pair.new.persistence.strategy
            guard old.value != new.value else { continue }
            let type = pair.new.type.value
            // The receipt lists every non-consumable and auto-renewable purchase for good.
            if new.value == .receipt, type == .nonConsumable || type == .autoRenewableSubscription { continue }
            report.report(
                "'\(pair.id)' now keeps its record \(RecordPlace.phrase(new.value)) instead of \(RecordPlace.phrase(old.value)): the records of people who already bought are not where the new strategy looks (the queue reads a product's records only from its current strategy's store), so they lose it on every device that did not deliver it itself; keep `\(old.value.rawValue)`, or ship a release that copies the existing records first (docs/diff.md#diff-persistence)",
                at: new,
                notes: [DiffNotes.was("persistence: \(old.value.rawValue)", at: old)] + DiffNotes.inherited(by: pair.new, pair.new.persistence.isInherited))
        }
    }
}

/// Where each strategy keeps a record, as a message says it.
enum RecordPlace {
    static func phrase(_ strategy: PersistenceStrategy) -> String {
        switch strategy {
        case .receipt: "in the receipt"
        case .userDefaults: "in user defaults"
        case .icloud: "in iCloud"
        case .server: "on your server"
        case .appState: "in the app's own state"
        }
    }
}
