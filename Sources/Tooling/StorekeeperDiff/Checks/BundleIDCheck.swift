import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// The app's bundle id changed.
    public static let bundleID = DiffCheck(
        id: "diff-bundle-id",
        severity: .error,
        summary: "The catalog stays the catalog of the app people bought in (its bundle id).",
        rationale: """
            In-app purchases belong to an app, and the app receipt is that app's record of them \
            (Delivering Products: Persisting Using the App Receipt). A different bundle id is a different \
            app in App Store Connect, with its own products and receipts: nobody owns anything there, and \
            what people bought in the old app does not follow them. Keep the bundle id; a new app is a \
            new catalog.
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
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro]

                    """,
                newHeader: """
                    app: {bundle-id: ↓com.example.app2}
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
                    features: [pro]

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app, platforms: [ios, macos], minimum-os: "16.0"}
                    features: [pro]

                    """),
        ]
    ) { context, report in
        let old = context.old.app.bundleID, new = context.new.app.bundleID
        guard old.value != new.value else { return }
        report.report(
            "the app's bundle id is now '\(new.value)', '\(old.value)' before: in-app purchases belong to the app, and a different bundle id is a different app in App Store Connect, where nobody owns anything; keep '\(old.value)' (docs/diff.md#diff-bundle-id)",
            at: new, notes: [DiffNotes.was("bundle-id: \(old.value)", at: old)])
    }
}
