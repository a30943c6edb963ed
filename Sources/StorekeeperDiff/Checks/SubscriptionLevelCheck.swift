import StorekeeperCatalog
import StorekeeperDiagnostics

extension DiffCheck {
    /// An auto-renewable subscription's level in its group changed.
    public static let subscriptionLevel = DiffCheck(
        id: "diff-subscription-level",
        severity: .warning,
        summary: "An auto-renewable subscription's level in its group changes only on purpose.",
        rationale: """
            Levels order a group's subscriptions, 1 the highest, and the order decides what a switch is for \
            the people already subscribed: moving to a higher level is an upgrade that starts at once and \
            refunds the rest of the period, moving to a lower one a downgrade that waits for the next \
            renewal, and the same level a crossgrade. Changing a level changes those directions for \
            existing subscribers (what was an upgrade may become a downgrade). It breaks no purchase, so \
            this is a warning: check that the new order is the one you mean.
            """,
        triggering: [
            DiffExample(
                old: """
                  - id: com.example.premium.monthly
                    type: auto-renewable-subscription
                    reference-name: Premium Monthly
                    price: "4.99"
                    group: premium
                    level: 2
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
                    level: ↓1
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
                    level: 1
                    period: P1M
                    localizations: {en-US: {title: Premium Monthly, description: "Every feature, every month"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        for pair in context.pairs where pair.sameType {
            guard let old = pair.old.subscription, let new = pair.new.subscription,
                  old.group.value == new.group.value, old.effectiveLevel != new.effectiveLevel
            else { continue }
            let direction = new.effectiveLevel < old.effectiveLevel ? "higher" : "lower"
            report.report(
                "'\(pair.id)' moved from level \(old.effectiveLevel) to level \(new.effectiveLevel) (\(direction)) in group '\(new.group.value)': for people already subscribed in the group, switching between it and the other subscriptions changes direction (an upgrade starts at once, a downgrade waits for the next renewal); check that this is the order you mean (docs/diff.md#diff-subscription-level)",
                at: new.level.map(\.range) ?? new.group.range,
                notes: old.level.map { [DiffNotes.was("level: \($0.value)", at: $0)] } ?? [])
        }
    }
}
