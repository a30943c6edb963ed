import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// A group's levels run 1, 2, 3… with none skipped.
struct SubscriptionLevelsRule: CatalogRule {
    static let description = RuleDescription(
        id: "subscription-levels",
        severity: .warning,
        summary: "A subscription group's levels run from 1 with no gap.",
        rationale: """
            Levels rank the subscriptions of a group, 1 the highest, and decide whether a change of \
            subscription is an upgrade or a downgrade; a group whose levels start below 1 or skip \
            one (1 and 3, no 2) was most likely renumbered by hand and left a mistake behind \
            (the catalog format: `group`, `level`, `period`; the In-App Purchase overview: \
            Products, on subscriptions).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.lite.monthly
                    type: auto-renewable-subscription
                    reference-name: Lite Monthly
                    price: "1.99"
                    group: premium
                    level: ↓3
                    period: P1M
                    localizations: {en-US: {title: Lite Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    level: ↓2
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro, extra]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.lite.monthly
                    type: auto-renewable-subscription
                    reference-name: Lite Monthly
                    price: "1.99"
                    group: premium
                    level: 2
                    period: P1M
                    localizations: {en-US: {title: Lite Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        // A subscription dropped for a format error may fill the gap.
        guard context.isComplete else { return }
        let products = context.catalog.products
        // Group -> level -> index of the first product at that level: one pass, no sorting of products.
        var levels: [String: [Int: Int]] = [:]
        // Through `inout`, each product costs one lookup per dictionary.
        func keepFirst(_ stored: inout Int?, _ index: Int) {
            if stored == nil { stored = index }
        }
        for index in products.indices where products[index].type.value == .autoRenewableSubscription {
            guard let subscription = products[index].subscription else { continue }
            keepFirst(&levels[subscription.group.value, default: [:]][subscription.effectiveLevel], index)
        }
        for group in context.catalog.groups {
            guard let byLevel = levels[group.id.value] else { continue }
            var previous: (level: Int, index: Int)?
            for level in byLevel.keys.sorted() {
                guard let index = byLevel[level] else { continue }
                defer { previous = (level, index) }
                let expected = (previous?.level ?? 0) + 1
                guard level > expected else { continue }
                let product = products[index]
                let skipped = level - 1 == expected ? "level \(expected)" : "levels \(expected) to \(level - 1)"
                var notes: [Diagnostic.Note] = []
                if let previous {
                    let before = products[previous.index]
                    let written = before.subscription?.level != nil
                    notes.append(Diagnostic.Note("the level before is \(previous.level)\(written ? "" : " (the default)"), of \(before.id.value)", at: Self.levelRange(of: before).start))
                }
                report.report(
                    "group \(group.id.value) skips \(skipped) (1 is the highest level); make \(product.id.value) level \(expected), so that the group's levels run from 1 with no gap",
                    at: Self.levelRange(of: product), notes: notes)
            }
        }
    }

    /// The product's `level` value, or the product when it leaves `level` out (level 1, which never jumps).
    static func levelRange(of product: Product) -> SourceRange {
        product.subscription?.level?.range ?? SourceRange(start: product.location)
    }
}
