import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// An auto-renewable subscription's level in its group changed.
    public static let subscriptionLevel = DiffCheck(
        id: "diff-subscription-level",
        severity: .warning,
        summary: "An auto-renewable subscription's level in its group changes only on purpose.",
        rationale: """
            Levels order a group's subscriptions, 1 the highest, and the order decides what a switch is for \
            the people already subscribed: moving to a higher level is an upgrade that starts at once \
            and refunds the rest of the period, moving to a lower one a downgrade that waits for the next \
            renewal, and the same level a crossgrade. Only the order counts, not the numbers: renumbering \
            every level (a new top tier added above the others) changes no switch. So this compares each subscription with \
            every other one of its group that is on both sides, and reports when one is now higher, level \
            with or lower than another where it was not: switching between those two changes direction \
            for existing subscribers. It breaks no purchase, so this is a warning: check that the new \
            order is the one you mean.
            """,
        triggering: [
            // Two subscriptions at one level (a crossgrade) now one above the other (an upgrade).
            DiffExample(
                old: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: ↓1
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            // The order swapped: each is reported, naming the other.
            DiffExample(
                old: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 1
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: ↓2
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: ↓1
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            // Renumbered for a new top tier: the order of the existing ones is the same.
            DiffExample(
                old: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: 1
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 3
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.lite
                    type: auto-renewable-subscription
                    reference-name: Premium Lite
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Lite, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.premium.max
                    type: auto-renewable-subscription
                    reference-name: Premium Max
                    price: "9.99"
                    group: premium
                    level: 1
                    period: P1M
                    localizations: {en-US: {title: Premium Max, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            // Alone in its group: no switch changes direction.
            DiffExample(
                old: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """,
                new: """
                  - id: com.example.premium.plus
                    type: auto-renewable-subscription
                    reference-name: Premium Plus
                    price: "4.99"
                    group: premium
                    level: 1
                    period: P1M
                    localizations: {en-US: {title: Premium Plus, description: "Every feature"}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ]
    ) { context, report in
        let subscriptions = context.pairs.filter { pair in
            guard pair.sameType, let old = pair.old.subscription, let new = pair.new.subscription else { return false }
            return old.group.value == new.group.value
        }
        // Reported at a subscription whose level changed: one that kept its level is the other end.
        for pair in subscriptions {
            guard let old = pair.old.subscription, let new = pair.new.subscription,
                  old.effectiveLevel != new.effectiveLevel
            else { continue }
            let changed = subscriptions.filter { other in
                guard other.id != pair.id, let otherOld = other.old.subscription, let otherNew = other.new.subscription,
                      otherNew.group.value == new.group.value
                else { return false }
                return LevelRelation(old.effectiveLevel, otherOld.effectiveLevel) != LevelRelation(new.effectiveLevel, otherNew.effectiveLevel)
            }
            guard let first = changed.first, let firstOld = first.old.subscription, let firstNew = first.new.subscription else { continue }
            let now = LevelRelation(new.effectiveLevel, firstNew.effectiveLevel)
            let before = LevelRelation(old.effectiveLevel, firstOld.effectiveLevel)
            let others = changed.count > 1 ? " (and with \(DiffNotes.list(changed.dropFirst().map(\.id))) too)" : ""
            var notes = old.level.map { [DiffNotes.was("level: \($0.value)", at: $0)] } ?? []
            if let level = firstNew.level { notes.append(Diagnostic.Note("'\(first.id)' is at level \(level.value) here", at: level.location)) }
            report.report(
                "'\(pair.id)' is now \(now.phrase) '\(first.id)' in group '\(new.group.value)' (level \(new.effectiveLevel) and \(firstNew.effectiveLevel)), \(before.phrase) it before (level \(old.effectiveLevel) and \(firstOld.effectiveLevel)): for people subscribed to '\(first.id)', switching to '\(pair.id)' is now \(now.switchTo) instead of \(before.switchTo)\(others); check that this is the order you mean (docs/diff.md#diff-subscription-level)",
                at: new.level.map(\.range) ?? new.group.range, notes: notes)
        }
    }
}

/// Where one subscription's level stands against another's (1 is the highest level).
enum LevelRelation: Equatable {
    case higher, same, lower

    init(_ level: Int, _ other: Int) {
        self = level < other ? .higher : level == other ? .same : .lower
    }

    /// "above", as in "now above 'x'".
    var phrase: String {
        switch self {
        case .higher: "above"
        case .same: "level with"
        case .lower: "below"
        }
    }

    /// What switching from the other subscription to this one is.
    var switchTo: String {
        switch self {
        case .higher: "an upgrade (at once)"
        case .same: "a crossgrade"
        case .lower: "a downgrade (at the next renewal)"
        }
    }
}
