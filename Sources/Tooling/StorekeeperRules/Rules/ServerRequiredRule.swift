import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Anything the server does needs the server declared.
struct ServerRequiredRule: CatalogRule {
    static let description = RuleDescription(
        id: "server-required",
        severity: .error,
        summary: "Server delivery, persistence or restore needs a top-level `server` block.",
        rationale: """
            With the server model your server validates the receipt and delivers the product, and a \
            server record or restore needs somewhere to ask; without a declared server none of that \
            can happen (Delivering Products: Persisting the Purchase; the server product model of \
            the In-App Purchase overview).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.articles
                    type: non-consumable
                    reference-name: Archive
                    price: "4.99"
                    localizations: {en-US: {title: Archive, description: Every past article}}
                    delivery: {model: ↓server, unlocks: [pro]}
                    persistence: ↓server
                    restore: ↓server
                """, server: nil),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.articles
                    type: non-consumable
                    reference-name: Archive
                    price: "4.99"
                    localizations: {en-US: {title: Archive, description: Every past article}}
                    delivery: {model: server, unlocks: [pro]}
                    persistence: server
                    restore: server
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        // An invalid `server` is reported where it is written, not again at every product.
        guard catalog.server == nil, !catalog.serverIsInvalid else { return }
        let products = catalog.products
        for index in products.indices {
            let uses = products[index].delivery.model.value == .server || products[index].persistence.strategy.value == .server
                || products[index].restore.policy.value == .server
            guard uses else { continue }
            let product = products[index]
            let notes = { (inherited: Bool) in inheritanceNotes(product, inherited: inherited) }
            if product.delivery.model.value == .server {
                report.report("\(product.id.value) is delivered by your server, but the catalog declares none; add `server: {url: https://…}`",
                              at: product.delivery.model, notes: notes(product.delivery.isInherited))
            }
            if product.persistence.strategy.value == .server {
                report.report("\(product.id.value) is recorded on your server, but the catalog declares none; add `server: {url: https://…}`",
                              at: product.persistence.strategy, notes: notes(product.persistence.isInherited))
            }
            if product.restore.policy.value == .server {
                report.report("\(product.id.value) is restored from your server, but the catalog declares none; add `server: {url: https://…}`",
                              at: product.restore.policy, notes: notes(product.restore.isInherited))
            }
        }
    }
}
