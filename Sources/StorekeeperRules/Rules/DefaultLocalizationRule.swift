import StorekeeperCatalog
import StorekeeperDiagnostics

/// Every product has the App Store's fallback localization.
struct DefaultLocalizationRule: CatalogRule {
    static let description = RuleDescription(
        id: "default-localization",
        severity: .note,
        summary: "A product has an `en-US` localization.",
        rationale: """
            The App Store returns each product's title and description in the storefront's \
            language, and falls back to `en-US` where the product has none for it; a product \
            without `en-US` has nothing to fall back on in those storefronts (the In-App Purchase \
            overview: Retrieving Product Information; the catalog format: `localizations`).
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations:
                      ↓fr: {title: Tout débloquer, description: Toutes les fonctions}
                      en-GB: {title: Unlock, description: Everything}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations:
                      fr: {title: Tout débloquer, description: Toutes les fonctions}
                      en-US: {title: Unlock, description: Everything}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    static let fallback = "en-US"

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        // By index, reading fields in place: copying every product costs more than the check.
        let products = context.catalog.products
        for index in products.indices where !products[index].localizations.contains(where: { $0.locale.value == Self.fallback }) {
            let product = products[index]
            guard let first = product.localizations.first else { continue }
            // The model keeps no range for the `localizations` mapping: point at its first locale.
            let locales = product.localizations.map(\.locale.value).joined(separator: ", ")
            report.report(
                "\(product.id.value) has no \(Self.fallback) localization, only \(locales); add \(Self.fallback), which the App Store shows in storefronts whose language the product lacks",
                at: first.locale)
        }
    }
}
