/// The values an import puts where a StoreKit configuration file has an
/// empty text the catalog cannot hold, and the test `export --base` uses to
/// write such a value back empty while the catalog still holds it unchanged.
/// Import and export share these rules, so that `import` then `export --base`
/// gives back the file as it was.
enum FilledValues {
    /// The locale of the localization a product with none gets.
    static let locale = "en-US"

    /// A product's title: its display name, or its reference name when that is empty.
    static func title(_ displayName: String, referenceName: String) -> String {
        displayName.isEmpty ? referenceName : displayName
    }

    /// A product's description: its description, or its title when that is empty.
    static func description(_ description: String, title: String) -> String {
        description.isEmpty ? title : description
    }
}
