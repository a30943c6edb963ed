import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// An auto-renewable subscription moved to another group.
    public static let subscriptionGroup = DiffCheck(
        id: "diff-subscription-group",
        severity: .error,
        summary: "An auto-renewable subscription stays in the group people subscribed in.",
        rationale: """
            A person holds at most one subscription of a group at a time, and moves within the group by \
            upgrading, downgrading or crossgrading; subscriptions in different groups are separate, each \
            renewing and billed on its own (App Store Connect Help: auto-renewable subscription groups). Existing subscribers stay subscribed in the old group: moving \
            the product to another group in the catalog does not move them, and a subscription in the new \
            group is a second purchase that renews beside the first, so they can end up paying twice. Keep \
            the subscription in its group; to offer it in another, add a new product there.
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
                    group: ↓basic
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
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
                  - id: com.example.basic.monthly
                    type: auto-renewable-subscription
                    reference-name: Basic Monthly
                    price: "1.99"
                    group: basic
                    period: P1M
                    localizations: {en-US: {title: Basic Monthly, description: "The basics, every month"}}
                    delivery: {model: built-in, unlocks: [extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        let remaining = Set(context.new.groups.map(\.id.value))
        for pair in context.pairs where pair.sameType {
            guard let old = pair.old.subscription?.group, let new = pair.new.subscription?.group, old.value != new.value,
                  // A group that is gone altogether is `diff-group-removed`'s finding.
                  remaining.contains(old.value)
            else { continue }
            report.report(
                "'\(pair.id)' moved from group '\(old.value)' to '\(new.value)': people subscribed through '\(old.value)' stay subscribed there, and a subscription in '\(new.value)' is a separate purchase that renews beside it, so they can end up paying twice; keep it in '\(old.value)', and add a new product to '\(new.value)' instead (docs/diff.md#diff-subscription-group)",
                at: new, notes: [DiffNotes.was("group: \(old.value)", at: old)])
        }
    }
}
