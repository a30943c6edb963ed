import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Apple-hosted content comes back only with restored transactions.
struct HostedContentRestoreRule: CatalogRule {
    static let description = RuleDescription(
        id: "hosted-content-restore",
        severity: .error,
        summary: "A product with Apple-hosted content restores with `restore-transactions`.",
        rationale: """
            Only restored transactions carry downloads: refreshing the receipt lists the purchase \
            but downloads nothing, so Apple-hosted content could never be downloaded again on a new \
            device (Restoring Purchased Products; Delivering Products: Downloading Hosted Content \
            from Apple's Server).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: ↓receipt-refresh
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.tracks
                    type: non-consumable
                    reference-name: Track Pack
                    price: "4.99"
                    localizations: {en-US: {title: Track Pack, description: Twelve new tracks}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: apple-hosted, size: 45MB}}
                    persistence: receipt
                    restore: {policy: restore-transactions, selection: user}
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        let products = catalog.products
        for index in products.indices where products[index].delivery.hasContent {
            let product = products[index]
            guard product.delivery.content?.source.value == .appleHosted,
                  product.restore.policy.value != .restoreTransactions, product.restore.policy.value != .none
            else { continue }
            report.report(
                "only restored transactions carry downloads: restore \(product.id.value), which has Apple-hosted content, with `restore-transactions`",
                at: product.restore.policy, notes: inheritanceNotes(product, inherited: product.restore.isInherited))
        }
    }
}
