import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// The app receipt exists only from iOS 7 and OS X 10.9.
struct ReceiptMinimumOSRule: CatalogRule {
    static let description = RuleDescription(
        id: "receipt-minimum-os",
        severity: .error,
        summary: "`persistence: receipt` and `restore: receipt-refresh` need a `minimum-os` of at least iOS 7.0 or macOS 10.9.",
        rationale: """
            The app receipt is the record of non-consumables and auto-renewable subscriptions only \
            from iOS 7 (and OS X 10.9) on; on older systems there is no app receipt to read, so the \
            app must keep its own record, in the user defaults system or iCloud, and restore by \
            replaying transactions (`restore-transactions`), since there is no receipt to refresh (Delivering Products: Persisting the Purchase; Restoring \
            Purchased Products). `minimum-os` applies to every platform the app lists, and \
            `platforms` defaults to iOS.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: ↓receipt
                    restore: ↓receipt-refresh
                """, app: #"app: {bundle-id: com.example.app, minimum-os: "6.1"}"#),
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro]}
                    restore: ↓receipt-refresh
                """, header: "defaults: {persistence: {strategy: ↓receipt}}",
                app: #"app: {bundle-id: com.example.app, platforms: [ios, macos], minimum-os: "8.0"}"#),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """, app: #"app: {bundle-id: com.example.app, platforms: [ios, macos], minimum-os: "10.9"}"#),
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations: {en-US: {title: Unlock, description: Everything}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: {strategy: icloud, record: receipt}
                    restore: restore-transactions
                """, app: #"app: {bundle-id: com.example.app, minimum-os: "6.1"}"#),
        ])

    /// The first version of each platform with an app receipt.
    static let firstWithReceipt: [(platform: Platform, name: String, version: OSVersion)] = [
        (.ios, "iOS", OSVersion(major: 7, minor: 0)),
        (.macos, "macOS", OSVersion(major: 10, minor: 9)),
    ]

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        guard let minimumOS = catalog.app.minimumOS else { return }
        // Decided once for the catalog: which listed platforms the minimum leaves without a receipt.
        let lacking = Self.firstWithReceipt.filter { entry in
            minimumOS.value < entry.version && catalog.app.platforms.contains { $0.value == entry.platform }
        }
        guard let needed = lacking.map(\.version).max() else { return }
        let systems = lacking.map { "\($0.name) \(minimumOS.value)" }.joined(separator: " and ")
        let note = Diagnostic.Note("`minimum-os` is \(minimumOS.value) here, for every platform the app lists", at: minimumOS.location)
        // By index, reading fields in place: copying every product costs more than the check.
        let products = catalog.products
        for index in products.indices where products[index].persistence.strategy.value == .receipt {
            let type = products[index].type.value
            guard type == .nonConsumable || type == .autoRenewableSubscription else { continue }
            let product = products[index]
            report.report(
                "\(systems) \(lacking.count == 1 ? "has" : "have") no app receipt to record \(product.id.value); raise `minimum-os` to \"\(needed)\" or later, or record it in `user-defaults` or `icloud` with `record: receipt`",
                at: product.persistence.strategy,
                notes: [note] + inheritanceNotes(product, inherited: product.persistence.isInherited))
        }
        // Without an app receipt there is nothing to refresh either: the guide
        // says to restore completed transactions there instead.
        for index in products.indices where products[index].restore.policy.value == .receiptRefresh {
            let product = products[index]
            report.report(
                "\(systems) \(lacking.count == 1 ? "has" : "have") no app receipt to refresh, so `receipt-refresh` restores nothing for \(product.id.value); raise `minimum-os` to \"\(needed)\" or later, or restore with `restore-transactions`",
                at: product.restore.policy,
                notes: [note] + inheritanceNotes(product, inherited: product.restore.isInherited))
        }
    }
}
