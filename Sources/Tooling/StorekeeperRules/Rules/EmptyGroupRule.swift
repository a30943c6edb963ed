import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// A declared group has subscriptions.
struct EmptyGroupRule: CatalogRule {
    static let description = RuleDescription(
        id: "empty-group",
        severity: .warning,
        summary: "Every declared subscription group has a subscription.",
        rationale: """
            A subscription group holds auto-renewable subscriptions among which the user chooses; \
            a group no product names offers nothing, and is most often left over from a removed \
            product or declared under another name than the products use (the catalog format: \
            `groups`; the In-App Purchase overview: Products, on subscriptions).
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
                """, groups: "groups: {premium: {name: Premium}, ↓legacy: {name: Legacy}}"),
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
                """),
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """, groups: nil),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        // A subscription dropped for a format error may be the group's only one.
        guard context.isComplete, !catalog.groups.isEmpty else { return }
        var used = Set<String>()
        // By index, reading fields in place: copying every product costs more than the check.
        let products = catalog.products
        for index in products.indices where products[index].type.value == .autoRenewableSubscription {
            if let group = products[index].subscription?.group.value { used.insert(group) }
        }
        for group in catalog.groups where !used.contains(group.id.value) {
            report.report(
                "no subscription is in group \(group.id.value); add its subscriptions (`group: \(group.id.value)`) or remove the group",
                at: group.id)
        }
    }
}
