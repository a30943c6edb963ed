import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// Custom rules: `when` a plan matches, `do` these steps instead, or `add`
/// steps before or after one.
enum RuleSchema {
    static let definition = SchemaKeywords.closedObject(
        "A custom rule: when plans match, replace their steps (do) or insert steps (add). A more specific rule (product, then type, then state alone) wins; 'storekeeper validate' checks the plans the rules make.",
        properties: [
            ("name", SchemaKeywords.reference("name", "The rule's name (required), unique across the catalog and its fragments.")),
            ("when", condition),
            ("do", steps("The steps that replace the matching plans' steps, in order (not empty). Exactly one of do and add.")),
            ("add", insertion),
        ],
        required: ["name", "when"],
        more: exactlyOne(of: "do", "add"))

    /// `when`: what the rule matches; everything it names must match.
    static let condition = SchemaKeywords.closedObject(
        "Which plans the rule changes: any of state, type, product, delivery and error, all of which must match (at least one).",
        properties: [
            ("state", SchemaKeywords.enumeration(TransactionState.self, "The transaction state.")),
            ("type", SchemaKeywords.enumeration(ProductType.self, "The product type.")),
            ("product", SchemaKeywords.patterned(
                "A product id, or a pattern in which * stands for any run of characters (com.example.app.coins.*, or * for every product). 'storekeeper validate' warns when it matches no product.",
                pattern: ValuePatterns.productPattern,
                message: "A product pattern is a product id (letters, digits, '.', '_', '-') in which * stands for any run of characters.",
                types: ["string", "number"])),
            ("delivery", SchemaKeywords.enumeration(DeliveryModel.self, "The product's delivery model.")),
            ("error", SchemaKeywords.enumeration(StoreErrorCode.self, "The store's error, for failed transactions (so only with state failed, or with no state).")),
        ],
        more: [
            ("minProperties", 1),
            ("allOf", [
                SchemaKeywords.when(
                    ["properties": ["state": ["not": ["const": .string(TransactionState.failed.rawValue)]]], "required": ["state"]],
                    then: ["properties": SchemaKeywords.forbidden(["error"])]),
            ]),
        ])

    /// `add`: steps inserted before or after a step.
    static let insertion = SchemaKeywords.closedObject(
        "Steps to insert before or after a step of the matching plans: {before: STEP, steps: [...]} or {after: STEP, steps: [...]}. Exactly one of do and add.",
        properties: [
            ("before", SchemaKeywords.reference("step", "Insert the steps before this step. Exactly one of before and after.")),
            ("after", SchemaKeywords.reference("step", "Insert the steps after this step. Exactly one of before and after.")),
            ("steps", steps("The steps to insert, in order (not empty).")),
        ],
        required: ["steps"],
        more: exactlyOne(of: "before", "after"))

    static func steps(_ description: String) -> JSONValue {
        SchemaKeywords.list(description, of: SchemaKeywords.reference("step"), atLeastOne: true)
    }

    /// One of two keys is required, and the second may not join the first:
    /// the CLI reports neither as `missing-key` at the mapping and both as
    /// `not-applicable` at the second key.
    static func exactlyOne(of first: String, _ second: String) -> [(key: String, value: JSONValue)] {
        [
            ("anyOf", [["required": [.string(first)]], ["required": [.string(second)]]]),
            ("if", ["required": [.string(first)]]),
            ("then", ["properties": SchemaKeywords.forbidden([second])]),
        ]
    }
}
