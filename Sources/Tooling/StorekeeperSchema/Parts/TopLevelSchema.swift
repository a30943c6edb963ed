import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// The top level of a file: a catalog (it has `catalog`) or a fragment that
/// a catalog includes (it has not).
enum TopLevelSchema {
    /// The keys a fragment may hold; the others belong in the catalog file.
    static let fragmentKeys = ["products", "groups", "features", "balances", "rules", "include"]

    /// The keys that `defaults` may set for every product that leaves them out.
    static let defaultedKeys = ["delivery", "persistence", "restore"]

    /// The format versions this schema describes.
    static let formats = [1]

    /// Every top-level key, as both kinds of file see it (the branches below
    /// say which a fragment may not use).
    static let properties: [(key: String, value: JSONValue)] = [
        ("catalog", SchemaKeywords.patterned(
            "The catalog's name: lower-case letters, digits and '-', at most 64 (like rocket-racer). Required in a catalog file; a file without it is a fragment, which a catalog includes.",
            pattern: ValuePatterns.catalogName,
            message: "A catalog name uses only lower-case letters, digits and '-', like rocket-racer.",
            types: ["string", "integer"])),
        ("format", [
            "description": .string("The catalog format version. Default 1, the only one there is."),
            "type": "integer",
            "enum": .array(formats.map(JSONValue.integer)),
            "default": .integer(formats[0]),
        ]),
        ("app", app),
        ("server", server),
        ("refunds", refunds),
        ("features", SchemaKeywords.list(
            "Names of app functionality that products unlock (delivery: {unlocks: [...]}), each declared once across the catalog and its fragments.",
            of: SchemaKeywords.reference("name"), unique: true)),
        ("balances", SchemaKeywords.list(
            "Names of counters that consumables add to (coins, credits, hints), each declared once across the catalog and its fragments.",
            of: SchemaKeywords.reference("name"), unique: true)),
        ("groups", groups),
        ("include", SchemaKeywords.list(
            "Fragment files to read as part of this file: paths relative to this file, ending in .yaml or .yml. A fragment holds only products, groups, features, balances, rules and include.",
            of: SchemaKeywords.patterned(
                "A fragment's path, relative to this file.",
                pattern: ValuePatterns.includePath,
                message: "An include is a path relative to this file (not starting with '/' or '~'), ending in .yaml or .yml."))),
        ("defaults", defaults),
        ("products", SchemaKeywords.list(
            "The products. At least one in the catalog and its fragments together; a catalog with no include needs at least one here.",
            of: SchemaKeywords.reference("product"))),
        ("rules", SchemaKeywords.list("Custom policy rules that change the plans of matching products.", of: SchemaKeywords.reference("rule"))),
    ]

    static let app = SchemaKeywords.closedObject(
        "The app that sells the products (required in a catalog file).",
        properties: [
            ("bundle-id", SchemaKeywords.patterned(
                "The app's bundle id, in reverse-DNS form: com.example.app (required).",
                pattern: ValuePatterns.bundleID,
                message: "A bundle id is reverse-DNS: two or more parts of letters, digits and '-', separated by '.', like com.example.app.")),
            ("platforms", [
                "description": "The platforms the app runs on, each once. Default [ios].",
                "type": "array",
                "items": SchemaKeywords.enumeration(Platform.self, "A platform."),
                "minItems": 1,
                "uniqueItems": true,
                "default": ["ios"],
            ]),
            ("minimum-os", SchemaKeywords.patterned(
                "The oldest OS version the app supports, \"major.minor\" in quotes, like \"15.0\" (unquoted, YAML tools read 15.10 as the number 15.1).",
                pattern: ValuePatterns.osVersion,
                message: "Write the version as \"major.minor\" in quotes, like \"15.0\".",
                examples: ["15.0", "16.0", "17.0"])),
        ],
        required: ["bundle-id"])

    static let server = SchemaKeywords.closedObject(
        "Your server, when a product uses server delivery, persistence or restore ('storekeeper validate' reports a catalog that needs one and has none).",
        properties: [
            ("url", SchemaKeywords.patterned(
                "The server's URL, in full: https (http only for localhost, 127.0.0.1 and [::1]), like https://store.example.com (required).",
                pattern: ValuePatterns.serverURL,
                message: "The server URL is https with a host, like https://store.example.com, with no user name, spaces or backslashes; http is allowed only for localhost, 127.0.0.1 and [::1].")),
            ("identity", SchemaKeywords.enumeration(ServerIdentity.self, "How the app identifies the user to the server.", default: .account)),
        ],
        required: ["url"])

    static let refunds = SchemaKeywords.closedObject(
        "What an App Store refund does where your ledger has a choice. Optional; only the catalog file sets it (docs/format.md#refunds).",
        properties: [
            ("spent-balance", SchemaKeywords.enumeration(
                RefundedSpendPolicy.self,
                "When Apple refunds a consumable whose balance (coins) the user has already spent: what the refund takes back. Default owe.",
                default: .default)),
        ])

    static let groups: JSONValue = [
        "description": "Subscription groups: group name -> {name, localizations?}. Every group an auto-renewable subscription names is declared here or in a fragment, once.",
        "type": "object",
        "propertyNames": SchemaKeywords.reference("name"),
        "additionalProperties": SchemaKeywords.closedObject(
            "A subscription group.",
            properties: [
                ("name", SchemaKeywords.reference("text", "The group's display name (required).")),
                ("localizations", [
                    "description": "The group's display name by locale: locale -> {name}.",
                    "type": "object",
                    "propertyNames": SchemaKeywords.reference("locale"),
                    "additionalProperties": SchemaKeywords.closedObject(
                        "The group's display name in one locale.",
                        properties: [("name", SchemaKeywords.reference("text", "The group's display name in this locale (required)."))],
                        required: ["name"]),
                ]),
            ],
            required: ["name"]),
    ]

    static let defaults = SchemaKeywords.closedObject(
        "Values for every product (here and in fragments) that leaves them out, in the same forms as a product's. A default replaces the missing value whole: mappings are never merged key by key.",
        properties: [
            ("delivery", SchemaKeywords.reference("delivery", "The delivery of every product that has none.")),
            ("persistence", SchemaKeywords.reference("persistence", "The persistence of every product that has none.")),
            ("restore", SchemaKeywords.reference("restore", "The restore of every product that has none.")),
            ("family-shareable", [
                "description": "Family Sharing for every non-consumable and auto-renewable subscription that does not say (other types ignore it).",
                "type": "boolean",
            ]),
        ])

    /// A catalog file: `catalog` and `app` required; the products of the
    /// file itself need what `defaults` does not give them.
    static let catalogFile: JSONValue = [
        "required": ["catalog", "app"],
        "allOf": .array(defaultedKeys.map { key in
            [
                "if": ["required": ["defaults"], "properties": ["defaults": ["required": [.string(key)]]]],
                "else": ["properties": ["products": ["items": ["required": [.string(key)]]]]],
            ]
        } + [
            SchemaKeywords.when(
                // No include, or an empty one: the products must be here.
                ["not": ["required": ["include"], "properties": ["include": ["minItems": 1]]]],
                then: ["required": ["products"], "properties": ["products": ["minItems": 1]]]),
        ]),
    ]

    /// A fragment: only the keys a fragment may hold. Its products may rely
    /// on the including catalog's defaults, which this file cannot see.
    static let fragmentFile: JSONValue = [
        "propertyNames": [
            "enum": SchemaKeywords.strings(fragmentKeys),
            "errorMessage": .string("A fragment (a file without 'catalog') may hold only \(fragmentKeys.joined(separator: ", ")); this key belongs in the catalog file."),
        ],
    ]
}
