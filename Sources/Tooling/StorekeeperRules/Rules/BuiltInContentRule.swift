import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Built-in means the app or Apple delivers the content.
struct BuiltInContentRule: CatalogRule {
    static let description = RuleDescription(
        id: "built-in-content",
        severity: .error,
        summary: "A built-in product's content comes from the bundle or is Apple-hosted.",
        rationale: """
            With the built-in model everything the product needs ships in the app bundle or is \
            hosted by Apple; content from your own server makes it a server product, which \
            validates the receipt first (Delivering Products: Delivering Associated Content).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.themes
                    type: non-consumable
                    reference-name: Themes
                    price: "1.99"
                    localizations: {en-US: {title: Themes, description: Twelve themes}}
                    delivery: {model: built-in, unlocks: [pro], content: {source: ↓server, path: themes}}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.themes
                    type: non-consumable
                    reference-name: Themes
                    price: "1.99"
                    localizations: {en-US: {title: Themes, description: Twelve themes}}
                    delivery: {model: server, unlocks: [pro], content: {source: server, path: themes}}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        // By index, reading fields in place: copying every product costs more than the check.
        let products = catalog.products
        for index in products.indices where products[index].delivery.model.value == .builtIn && products[index].delivery.hasContent {
            let product = products[index]
            guard let source = product.delivery.content?.source, source.value == .server else { continue }
            report.report(
                "\(product.id.value) is built-in, so its content ships in the bundle or is Apple-hosted; make the product `model: server`, or use `bundle` or `apple-hosted`",
                at: source, notes: inheritanceNotes(product, inherited: product.delivery.isInherited))
        }
    }
}
