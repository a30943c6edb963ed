import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A restore policy that no longer brings back what people bought.
    public static let restore = DiffCheck(
        id: "diff-restore",
        severity: .error,
        summary: "A product's restore policy still brings back what people already bought.",
        rationale: """
            People restore to keep what they bought on a new device or after reinstalling (Restoring \
            Purchased Products). A change of restore policy must still find their purchases: `none` \
            finds nothing; only restored transactions carry Apple-hosted downloads, so dropping \
            `restore-transactions` for such a product means owners can never download its content again; \
            and restoring from your server or from iCloud finds only what was recorded there, which for \
            people who bought before is wherever the old persistence strategy kept it. Moving between \
            `receipt-refresh` and `restore-transactions` is safe for non-consumables and auto-renewable \
            subscriptions without Apple-hosted content (the App Store has every such purchase), and so is a \
            move to the place the records were already kept.
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
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: ↓none
                """),
            DiffExample(
                old: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: {policy: restore-transactions, selection: user}
                """,
                new: """
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [extra], content: {source: apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: ↓receipt-refresh
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
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: ↓server
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
                    restore: restore-transactions
                """),
            DiffExample(
                old: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [extra]}
                    persistence: server
                    restore: icloud
                """,
                new: """
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "7.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [extra]}
                    persistence: server
                    restore: server
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.new.type.value.isOwned {
            let old = pair.old.restore.policy, new = pair.new.restore.policy
            guard old.value != new.value, let problem = RestoreChange.problem(pair, from: old.value, to: new.value) else { continue }
            report.report(
                "'\(pair.id)' now restores with `\(new.value.rawValue)` instead of `\(old.value.rawValue)`: \(problem) (docs/diff.md#diff-restore)",
                at: new,
                notes: [DiffNotes.was("restore: \(old.value.rawValue)", at: old)] + DiffNotes.inherited(by: pair.new, pair.new.restore.isInherited))
        }
    }
}

/// What a change of restore policy does to people who already bought.
enum RestoreChange {
    /// Where a restore policy looks for purchases.
    enum Source: Equatable {
        case appStore, server, icloud, nowhere
    }

    static func source(_ policy: RestorePolicy) -> Source {
        switch policy {
        case .receiptRefresh, .restoreTransactions: .appStore
        case .server: .server
        case .icloud: .icloud
        case .none: .nowhere
        }
    }

    /// Why the change loses purchases, or nil when it does not.
    static func problem(_ pair: ProductPair, from old: RestorePolicy, to new: RestorePolicy) -> String? {
        if new == .none {
            return "people who bought it can no longer restore it on a new device or after reinstalling; keep `\(old.rawValue)`"
        }
        if old == .restoreTransactions, pair.new.delivery.content?.source.value == .appleHosted {
            return "only restored transactions carry Apple-hosted downloads, so owners could never download its content again; keep `restore-transactions`"
        }
        let from = source(old), to = source(new)
        guard from != to else { return nil }
        let type = pair.new.type.value
        switch to {
        case .appStore:
            // The App Store has every non-consumable and auto-renewable purchase; it drops
            // non-renewing ones from the receipt once finished.
            if type == .nonConsumable || type == .autoRenewableSubscription { return nil }
            return "the receipt drops a non-renewing subscription once it is finished, so a restore through the App Store finds none of the passes already sold; keep `\(old.rawValue)`"
        case .server, .icloud:
            let place: PersistenceStrategy = to == .server ? .server : .icloud
            if pair.old.persistence.strategy.value == place { return nil }
            return "a restore now looks \(RecordPlace.phrase(place)), but the purchases already made were recorded \(RecordPlace.phrase(pair.old.persistence.strategy.value)), so it finds none of them; keep `\(old.rawValue)`, or copy the existing records there first"
        case .nowhere:
            return nil
        }
    }
}
