import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Titles and descriptions fit what the App Store shows.
struct DisplayLengthRule: CatalogRule {
    static let description = RuleDescription(
        id: "display-length",
        severity: .warning,
        summary: "A title has 2 to 30 characters, a description at most 45.",
        rationale: """
            The app shows each product with the localized title and description the App Store \
            returns for it, and App Store Connect takes a title of 2 to 30 characters and a \
            description of at most 45 (the In-App Purchase overview: Registering Products with the \
            App Store, Retrieving Product Information; the catalog format: `localizations`). \
            Characters are counted as the user sees them, as grapheme clusters: `é` written as \
            `e` and a combining accent, or a flag emoji, is one character.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Unlock
                    price: "2.99"
                    localizations:
                      en-US: {title: ↓Everything Unlocked Forever and Ever, description: Everything}
                      fr: {title: ↓X, description: ↓"Toutes les fonctions de l'application, pour toujours"}
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
                      en-US: {title: Go, description: Every feature of the app for good and ever}
                      ja: {title: すべての機能をずっと使えるようにするアンロック, description: アプリのすべての機能がずっと使えるようになる買い切りのアンロックです。}
                      fr: {title: "Les fonctions avancées à vie \u{1F1EB}\u{1F1F7}", description: "Toutes les fonctions de l'app pour toujours \u{1F1EB}\u{1F1F7}"}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    static let titleLimit = 30
    static let titleMinimum = 2
    static let descriptionLimit = 45

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        // By index, reading fields in place: copying every product and
        // localization costs more than the check.
        let products = context.catalog.products
        for index in products.indices {
            let localizations = products[index].localizations
            for place in localizations.indices
            where Self.isOffLimits(title: localizations[place].title.value, description: localizations[place].description.value) {
                let product = products[index], localization = localizations[place]
                let title = localization.title.value
                if Self.isTooShort(title) {
                    report.report(
                        "the \(localization.locale.value) title of \(product.id.value) is \(title.count) character long; the App Store needs at least \(Self.titleMinimum)",
                        at: localization.title)
                } else if Self.isLonger(title, than: Self.titleLimit) {
                    report.report(
                        "the \(localization.locale.value) title of \(product.id.value) is \(title.count) characters long; the App Store shows at most \(Self.titleLimit)",
                        at: localization.title)
                }
                if Self.isLonger(localization.description.value, than: Self.descriptionLimit) {
                    report.report(
                        "the \(localization.locale.value) description of \(product.id.value) is \(localization.description.value.count) characters long; the App Store shows at most \(Self.descriptionLimit)",
                        at: localization.description)
                }
            }
        }
    }

    /// Whether a title or a description breaks a limit.
    @inline(__always)
    static func isOffLimits(title: String, description: String) -> Bool {
        isTooShort(title) || isLonger(title, than: titleLimit) || isLonger(description, than: descriptionLimit)
    }

    /// Whether a title has fewer than 2 characters. Two ASCII bytes other
    /// than CR LF are two characters, which settles almost every title
    /// without breaking it into grapheme clusters.
    @inline(__always)
    static func isTooShort(_ title: String) -> Bool {
        let utf8 = title.utf8
        if utf8.count >= 2 {
            let first = utf8[utf8.startIndex], second = utf8[utf8.index(after: utf8.startIndex)]
            if first < 0x80, second < 0x80, !(first == 0x0D && second == 0x0A) { return false }
        }
        return title.isEmpty || title.index(after: title.startIndex) == title.endIndex
    }

    /// Whether a text has more than `limit` characters, counting grapheme
    /// clusters only when the cheaper counts cannot tell: a text has at most
    /// as many characters as scalars, and at most as many scalars as bytes.
    @inline(__always)
    static func isLonger(_ text: String, than limit: Int) -> Bool {
        guard text.utf8.count > limit, scalarCount(text) > limit else { return false }
        return text.count > limit
    }

    /// The number of scalars: the bytes that are not UTF-8 continuation bytes,
    /// counted without decoding.
    static func scalarCount(_ text: String) -> Int {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        } ?? text.unicodeScalars.count
    }
}
