import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A feature that products unlocked is gone from the catalog.
    public static let featureRemoved = DiffCheck(
        id: "diff-feature-removed",
        severity: .warning,
        summary: "A feature that products unlocked stays declared.",
        rationale: """
            People who bought a product that unlocked a feature paid for it (Delivering Products: Unlocking \
            App Functionality). With the feature gone from the catalog, what consumables unlocked stays \
            unlocked under the old name in each device's journal (docs/queue.md: Entitlements), which the \
            app no longer asks about, even when the feature was renamed; a non-consumable or subscription \
            that no longer unlocks it is also `diff-unlock-dropped`, an error, since its buyers lose the \
            feature on every new device and restore. Removing the declaration can be right (a feature \
            nothing owned unlocks, retired on purpose), so this is a warning. Keep the feature declared \
            and unlocked by the products that had it, or keep its old name.
            """,
        triggering: [
            // A consumable unlocked it: only the declaration is reported.
            DiffExample(
                old: """
                  - id: com.example.boost
                    type: consumable
                    reference-name: Boost
                    price: "0.99"
                    localizations: {en-US: {title: Boost, description: Unlocks the extra track}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: app-state
                    restore: none
                """,
                new: """
                  - id: com.example.boost
                    type: consumable
                    reference-name: Boost
                    price: "0.99"
                    localizations: {en-US: {title: Boost, description: A boost}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: app-state
                    restore: none
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, ↓extra]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro]

                    """),
            // An owned product unlocked it: its dropped unlock is `diff-unlock-dropped` too.
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
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, ↓extra]

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
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, unused]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro]

                    """),
        ]
    ) { context, report in
        let declared = Set(context.new.features.map(\.value))
        for feature in context.old.features where !declared.contains(feature.value) {
            let unlockers = context.old.products.filter { product in product.delivery.unlocks.contains { $0.value == feature.value } }
            guard !unlockers.isEmpty else { continue }
            report.report(Self.featureRemovedMessage(feature.value, unlockers: unlockers), at: feature)
        }
    }

    /// What removing a feature does, said for the kinds of product that unlocked it.
    static func featureRemovedMessage(_ feature: String, unlockers: [Product]) -> String {
        let owned = unlockers.filter { $0.type.value.isOwned }.map(\.id.value)
        let consumables = unlockers.filter { !$0.type.value.isOwned }.map(\.id.value)
        var effects: [String] = []
        if !owned.isEmpty {
            effects.append("people who bought \(DiffNotes.list(owned)) lose it on a new device or after a restore")
        }
        if !consumables.isEmpty {
            let what = consumables.count == 1 ? "consumable" : "consumables"
            effects.append("what \(what) \(DiffNotes.list(consumables)) unlocked stays under the old name in each device's journal, which the app no longer asks about, even if the feature was renamed")
        }
        return "feature '\(feature)' is gone from the new catalog, but \(DiffNotes.list(unlockers.map(\.id.value))) unlocked it: "
            + effects.joined(separator: "; ")
            + "; keep '\(feature)' declared and unlocked by the products that had it (docs/diff.md#diff-feature-removed)"
    }
}
