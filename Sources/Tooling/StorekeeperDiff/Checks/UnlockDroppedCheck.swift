import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A product people own no longer unlocks a feature it unlocked.
    public static let unlockDropped = DiffCheck(
        id: "diff-unlock-dropped",
        severity: .error,
        summary: "A non-consumable or subscription keeps unlocking every feature it unlocked.",
        rationale: """
            The app decides what to unlock from its record of the purchase and what the product unlocks \
            (Delivering Products: Unlocking App Functionality). People who bought the product paid for the \
            features it unlocked; dropping one takes it from them, unevenly: a device that delivered the \
            purchase keeps the feature in its journal, while a new device or a restore unlocks only what \
            the catalog lists now (docs/queue.md: Entitlements). Keep the feature in the product's \
            `unlocks`; to sell it apart, add it to a new product as well. This holds whether or not the \
            feature is still declared: a feature removed from the catalog together with the products' \
            unlocks is this error for each owned product that unlocked it, and `diff-feature-removed` \
            reports the declaration itself.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [↓pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            // The feature is removed along with the unlock: the buyers lose it all the same.
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [↓pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, extra]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro]

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
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.old.type.value.isOwned && pair.new.type.value.isOwned {
            let now = Set(pair.new.delivery.unlocks.map(\.value))
            let dropped = pair.old.delivery.unlocks.filter { !now.contains($0.value) }
            guard !dropped.isEmpty else { continue }
            let at = pair.new.delivery.unlocks.first?.range ?? pair.new.delivery.model.range
            let notes = dropped.map { DiffNotes.was("'\($0.value)' in its unlocks", at: $0) }
                + DiffNotes.inherited(by: pair.new, pair.new.delivery.isInherited)
            let names = DiffNotes.list(dropped.map(\.value))
            report.report(
                "'\(pair.id)' no longer unlocks \(names): people who bought it paid for \(dropped.count == 1 ? "it" : "them"), and they lose \(dropped.count == 1 ? "it" : "them") on a new device or after a restore; keep \(names) in its unlocks (docs/diff.md#diff-unlock-dropped)",
                at: at, notes: notes)
        }
    }
}
