import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperPolicy

/// The value kinds used in several places (names, prices, periods, locales),
/// kept once under `$defs`.
enum ValueDefinitions {
    static let definitions: [(key: String, value: JSONValue)] = [
        ("name", name),
        ("product-id", productID),
        ("text", text),
        ("locale", locale),
        ("price", price),
        ("period", period),
        ("step", step),
    ]

    /// A feature, balance, group, rule or step name.
    static let name = SchemaKeywords.patterned(
        "A name: a letter, then letters, digits, '-', '_' or '.'; at most 64 characters.",
        pattern: ValuePatterns.name,
        message: "A name starts with a letter and has only letters, digits, '-', '_' and '.', at most 64 characters, like pro-tracks.")

    /// A product id. Plain digits are text to the CLI but a number to editors, so both are accepted.
    static let productID = SchemaKeywords.patterned(
        "A product id: 1 to 100 characters of A-Z a-z 0-9 . _ - (like com.example.app.coins.100), unique across the catalog and its fragments.",
        pattern: ValuePatterns.productID,
        message: "A product id has 1 to 100 characters, only letters, digits, '.', '_' and '-'.",
        types: ["string", "number"])

    /// Text shown to people or kept as a label: any value but an empty one.
    /// (Editors read `1984` as a number; the CLI reads it as text, so both are accepted.)
    static let text: JSONValue = [
        "description": "Text, not empty. Quote it if it contains ': ' or ' #', or, inside {...} or [...], a comma.",
        "type": ["string", "number"],
        "minLength": 1,
    ]

    /// A locale, as a key of `localizations`.
    static let locale = SchemaKeywords.patterned(
        "A locale: a language code of 2 or 3 lower-case letters, an optional script (Hans), an optional region (US, 419), joined by '-': en, en-US, pt-BR, zh-Hans, es-419.",
        pattern: ValuePatterns.locale,
        message: "A locale is a language with an optional script and region, joined by '-': en-US, fr, pt-BR, zh-Hans (not en_US).",
        examples: ["en-US", "en", "fr", "de", "ja", "pt-BR", "zh-Hans", "es-419"])

    /// A price, quoted or not: quoted text is checked for its two decimal
    /// places; an unquoted number only for its range (a validator sees 0.999
    /// as a number, not as what was written).
    static let price: JSONValue = [
        "description": "A price: a decimal with at most two places, 0 to 1,000,000, like \"0.99\" or 4. Quoted or not, it is the same price; quoted, editors also check the decimal places. Storekeeper keeps prices as whole cents.",
        "type": ["string", "number"],
        "pattern": .string(ValuePatterns.price),
        "patternErrorMessage": "A price is a decimal with at most two places, 0 to 1,000,000, without sign or separators: \"0.99\", \"4\", \"1299.99\".",
        "minimum": 0,
        "maximum": .integer(ValuePatterns.maximumPrice),
        "examples": ["0.99", "1.99", "2.99", "4.99", "9.99"],
    ]

    /// An ISO 8601 period of whole days, weeks, months and years.
    static let period = SchemaKeywords.patterned(
        "An ISO 8601 period of whole days, weeks, months and years: P, then numbers with units in the order Y, M, W, D, like P3D, P1W, P3M, P1Y, P1Y6M. No time part (PT12H) and not zero long; each number at most 10,000.",
        pattern: ValuePatterns.period,
        message: "Write a period as P, a number and a unit (Y, M, W or D), like P3M or P1Y; no time part, not zero.",
        examples: SubscriptionPeriod.allCases.map(\.rawValue))

    /// A step of a plan: a built-in one, offered for completion, or one a
    /// plugin registers (named in storekeeper.yml), which only the CLI knows.
    static let step: JSONValue = [
        "description": "A step of a plan: a built-in step, or one that an app's plugin registers (listed under 'steps' in storekeeper.yml). Any name is accepted here; 'storekeeper validate' reports a step that is neither (unknown-step) and suggests the nearest.",
        "anyOf": [
            SchemaKeywords.enumeration(BuiltInStep.self, "A built-in step."),
            SchemaKeywords.reference("name", "A step that a plugin registers."),
        ],
    ]
}
