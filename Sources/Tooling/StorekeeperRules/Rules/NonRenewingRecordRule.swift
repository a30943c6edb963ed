import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Non-renewing subscriptions are recorded and restored by the app.
struct NonRenewingRecordRule: CatalogRule {
    static let description = RuleDescription(
        id: "non-renewing-record",
        severity: .error,
        summary: "A non-renewing subscription is persisted and restored through `server` or `icloud`.",
        rationale: """
            The app, not the App Store, is responsible for a non-renewing subscription: it must keep \
            the record itself, in iCloud or on its own server, and restore it from there on the \
            user's other devices (Delivering Products: Persisting the Purchase; Restoring Purchased \
            Products).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "9.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: ↓receipt
                    restore: ↓receipt-refresh
                """),
            RuleExample("""
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "9.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: {strategy: ↓user-defaults, record: receipt}
                    restore: server
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.pass
                    type: non-renewing-subscription
                    reference-name: Season Pass
                    price: "9.99"
                    duration: P3M
                    localizations: {en-US: {title: Season Pass, description: Three months of events}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: icloud
                    restore: icloud
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        let allowedPersistence: Set<PersistenceStrategy> = [.server, .icloud]
        let allowedRestore: Set<RestorePolicy> = [.server, .icloud]
        let products = catalog.products
        for index in products.indices where products[index].type.value == .nonRenewingSubscription {
            let product = products[index]
            if !allowedPersistence.contains(product.persistence.strategy.value) {
                report.report(
                    "the app keeps the record of a non-renewing subscription itself: persist \(product.id.value) with `server` or `icloud`",
                    at: product.persistence.strategy, notes: inheritanceNotes(product, inherited: product.persistence.isInherited))
            }
            if !allowedRestore.contains(product.restore.policy.value) {
                report.report(
                    "the app restores a non-renewing subscription itself: restore \(product.id.value) with `server` or `icloud`",
                    at: product.restore.policy, notes: inheritanceNotes(product, inherited: product.restore.isInherited))
            }
        }
    }
}
