import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// One level of a group offers each period once.
struct DuplicateSubscriptionPeriodRule: CatalogRule {
    static let description = RuleDescription(
        id: "duplicate-subscription-period",
        severity: .warning,
        summary: "Two subscriptions of one group and level do not share a period.",
        rationale: """
            The subscriptions at one level of a group are the same service for different \
            durations, and the user picks one of them; two with the same level and period offer \
            the same thing twice, and one of them is most likely a copy whose level or period was \
            not changed (the catalog format: `group`, `level`, `period`; the In-App Purchase \
            overview: Products, on subscriptions).
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
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.pro.yearly
                    type: auto-renewable-subscription
                    reference-name: Pro Yearly
                    price: "29.99"
                    group: premium
                    level: 1
                    period: ↓P1M
                    localizations: {en-US: {title: Pro Yearly, description: Every year}}
                    delivery: {model: built-in, unlocks: [pro]}
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
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                  - id: com.example.pro.yearly
                    type: auto-renewable-subscription
                    reference-name: Pro Yearly
                    price: "29.99"
                    group: premium
                    period: P1Y
                    localizations: {en-US: {title: Pro Yearly, description: Every year}}
                    delivery: {model: built-in, unlocks: [pro]}
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

    /// A place in a group: its level and period.
    struct Slot: Hashable {
        let group: String
        let level: Int
        let period: SubscriptionPeriod
    }

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let products = context.catalog.products
        // Each slot's first product: later ones are reported against it.
        var first: [Slot: Int] = [:]
        for index in products.indices where products[index].type.value == .autoRenewableSubscription {
            guard let subscription = products[index].subscription else { continue }
            let slot = Slot(group: subscription.group.value, level: subscription.effectiveLevel, period: subscription.period.value)
            // One lookup for the common first sighting; a repeat puts the first back.
            guard let earlier = first.updateValue(index, forKey: slot) else { continue }
            first[slot] = earlier
            let product = products[index], other = products[earlier]
            let otherPeriod = other.subscription?.period.location ?? other.location
            report.report(
                "\(product.id.value) has the same level (\(slot.level)) and period (\(slot.period.rawValue)) in group \(slot.group) as \(other.id.value); change its period, or its level if it is another tier",
                at: subscription.period,
                notes: [Diagnostic.Note("\(other.id.value) is at level \(slot.level) with period \(slot.period.rawValue) here", at: otherPeriod)])
        }
    }
}
