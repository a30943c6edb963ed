/// Catalog text for tests that build catalogs product by product.
public enum ProductText {
    /// One product's YAML, as an item of `products:` (indented two spaces),
    /// with a group and period for auto-renewable subscriptions and a
    /// duration for non-renewing ones, so that it decodes without error.
    public static func product(id: String, type: String, delivery: String, persistence: String, restore: String) -> String {
        var extra = ""
        switch type {
        case "auto-renewable-subscription": extra = "    group: premium\n    period: P1M\n"
        case "non-renewing-subscription": extra = "    duration: P3M\n"
        default: break
        }
        return """
              - id: \(id)
                type: \(type)
                reference-name: \(id)
                price: "0.99"
                localizations: {en-US: {title: Thing, description: A thing}}
            \(extra)    delivery: \(delivery)
                persistence: \(persistence)
                restore: \(restore)

            """
    }
}
