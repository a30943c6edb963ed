import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Every product has the App Store's fallback localization.
struct DefaultLocalizationRule: CatalogRule {
    static let description = RuleDescription(
        id: "default-localization",
        severity: .note,
        summary: "A product has an `en-US` localization.",
        rationale: """
            The App Store shows each product's title and description in the language of the \
            user's storefront, and the app displays them as the store returns them (the In-App \
            Purchase overview: Retrieving Product Information). Storekeeper treats `en-US` as the \
            catalog's default locale, the one every product should have so that no storefront \
            shows a product without text; this is a convention of the catalog format (the guide \
            names no fallback), hence a note, not a warning. Turn it off in storekeeper.yml for \
            a catalog whose default language is another.
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
                "\(product.id.value) has no \(Self.fallback) localization, only \(locales); add \(Self.fallback), the catalog's default locale",
                at: first.locale)
        }
    }
}
