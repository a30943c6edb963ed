import StorekeeperCatalog
import StorekeeperDiagnostics

extension DiffCheck {
    /// A feature that products unlocked is gone from the catalog.
    public static let featureRemoved = DiffCheck(
        id: "diff-feature-removed",
        severity: .warning,
        summary: "A feature that products unlocked stays declared.",
        rationale: """
            People who bought a product that unlocked a feature paid for it (Delivering Products: Unlocking \
            App Functionality). With the feature gone from the catalog they lose it, unless it was renamed: \
            a product still owned unlocks its new name wherever its record is read, but what consumables \
            unlocked stays unlocked under the old name in each device's journal (docs/queue.md: \
            Entitlements), which the app no longer asks about. A rename is a legitimate change, so this is \
            a warning; a feature retired while people own it is a loss to them. Keep the feature declared \
            and unlocked by the products that had it, or keep its old name.
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
            report.report(
                "feature '\(feature.value)' is gone from the new catalog, but \(DiffNotes.list(unlockers.map(\.id.value))) unlocked it: people who bought \(unlockers.count == 1 ? "it" : "them") lose it, and if it was renamed, what consumables unlocked stays under the old name in each device's journal; keep '\(feature.value)' declared and unlocked by the products that had it (docs/diff.md#diff-feature-removed)",
                at: feature)
        }
    }
}
