import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// Family Sharing turned off after it was on.
    public static let familySharing = DiffCheck(
        id: "diff-family-sharing",
        severity: .error,
        summary: "Family Sharing, once on for a product, stays on.",
        rationale: """
            App Store Connect does not let Family Sharing be turned off for an in-app purchase once it has \
            been turned on (App Store Connect Help: Turn on Family Sharing for in-app purchases, \
            https://developer.apple.com/help/app-store-connect/configure-in-app-purchase-settings/turn-on-family-sharing-for-in-app-purchases), \
            so a catalog that says `false` no longer describes the product. Family members already share \
            the purchase; an app that now treats it as not shared would take it away from them. Keep \
            `family-shareable: true`.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    family-shareable: true
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
                    family-shareable: ↓false
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            DiffExample(
                old: """
                  - id: com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
                    family-shareable: true
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: ↓com.example.car
                    type: non-consumable
                    reference-name: Rocket Car
                    price: "2.99"
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
                    family-shareable: true
                    localizations: {en-US: {title: Rocket Car, description: Fly over the traffic}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType && pair.old.isFamilyShareable && !pair.new.isFamilyShareable {
            let notes = pair.old.familyShareable.map { [DiffNotes.was("family-shareable: true", at: $0)] } ?? []
            let message = "Family Sharing was on for '\(pair.id)' and is off now: App Store Connect does not turn it off once it is on, and family members already share the purchase; keep `family-shareable: true` (docs/diff.md#diff-family-sharing)"
            if let written = pair.new.familyShareable {
                report.report(message, at: written, notes: notes)
            } else {
                report.report(message, at: pair.new.id, notes: notes)
            }
        }
    }
}
