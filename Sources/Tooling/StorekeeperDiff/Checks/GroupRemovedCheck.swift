import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// A subscription group people subscribe in is gone.
    public static let groupRemoved = DiffCheck(
        id: "diff-group-removed",
        severity: .error,
        summary: "A subscription group with subscriptions stays in the catalog.",
        rationale: """
            People subscribed in a group keep renewing in it whatever the catalog says; a group's id in the \
            catalog is what ties its subscriptions together for upgrades, downgrades and the one-at-a-time \
            rule (App Store Connect Help: auto-renewable subscription groups). Removing it, or renaming it, leaves existing subscriptions in a group the catalog no \
            longer has, and moves its products into another group where a purchase is a second \
            subscription beside the first. Keep the group and its id.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: gold
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, extra]
                    groups: {↓premium: {name: Premium}}

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, extra]
                    groups: {gold: {name: Premium}}

                    """),
        ],
        nonTriggering: [
            DiffExample(
                old: """
                  - id: com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                oldHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, extra]
                    groups: {premium: {name: Premium}, trial: {name: Trial}}

                    """,
                newHeader: """
                    app: {bundle-id: com.example.app}
                    features: [pro, extra]
                    groups: {premium: {name: Premium Plus}}

                    """),
        ]
    ) { context, report in
        let remaining = Set(context.new.groups.map(\.id.value))
        for group in context.old.groups where !remaining.contains(group.id.value) {
            let subscriptions = context.old.products.filter { $0.subscription?.group.value == group.id.value }
            guard !subscriptions.isEmpty else { continue }
            // Where its subscriptions went, in the new catalog.
            var notes: [Diagnostic.Note] = []
            for product in subscriptions {
                guard let moved = context.new.product(id: product.id.value)?.subscription?.group else { continue }
                notes.append(Diagnostic.Note("'\(product.id.value)' is in '\(moved.value)' now", at: moved.location))
            }
            report.report(
                "group '\(group.id.value)' is gone from the new catalog, but people subscribe in it (\(DiffNotes.list(subscriptions.map(\.id.value)))): their subscriptions go on renewing in that group, and a purchase in another group is a second subscription beside the first; keep the group and its id (docs/diff.md#diff-group-removed)",
                at: group.id, notes: notes)
        }
    }
}
