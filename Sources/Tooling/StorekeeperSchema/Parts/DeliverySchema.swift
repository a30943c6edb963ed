import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON

/// `delivery`: its short form (the model) and its mapping, with `content`.
enum DeliverySchema {
    static let definition: JSONValue = [
        "description": "Who delivers what a purchase buys. Short form: built-in or server. Long form: {model, unlocks, grants, content}.",
        "anyOf": [
            SchemaKeywords.enumeration(DeliveryModel.self, "The delivery model, in the short form."),
            SchemaKeywords.closedObject(
                "The delivery, in the long form.",
                properties: [
                    ("model", SchemaKeywords.enumeration(DeliveryModel.self, "Who delivers the product (required).")),
                    ("unlocks", SchemaKeywords.list(
                        "Features the purchase makes available: names declared under 'features' in the catalog or a fragment.",
                        of: SchemaKeywords.reference("name"))),
                    ("grants", [
                        "description": "Consumables only: declared balance -> amount (1 to 1,000,000,000), added once for each unit bought, like {coins: 100}. Not empty.",
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": SchemaKeywords.reference("name"),
                        "additionalProperties": SchemaKeywords.integer("The amount added to this balance for each unit bought.", in: 1...1_000_000_000),
                    ]),
                    ("content", content),
                ],
                required: ["model"]),
        ],
    ]

    /// `content`: the product's associated content.
    static let content = SchemaKeywords.closedObject(
        "The product's associated content: {source, path?, size?, storage?}. A built-in product's content comes from the bundle or is Apple-hosted.",
        properties: [
            ("source", SchemaKeywords.enumeration(ContentSource.self, "Where the content comes from (required).")),
            ("path", SchemaKeywords.patterned(
                "The content's path, relative to its root, with '/' between folders, never leaving the root: Vehicles/rocketCar.plist. Required for bundle content.",
                pattern: ValuePatterns.contentPath,
                message: "A content path is relative to its root (no leading '/' or '~', no drive letter, not a URL), uses '/' between folders and has no control characters, like Levels/forest.plist.")),
            ("size", SchemaKeywords.patterned(
                "The content's size: a number, then B, KB, MB, GB (decimal, as App Store Connect counts) or KiB, MiB, GiB (binary), like 45MB or 1.5 GB. More than 0; Apple-hosted content is at most 2 GB.",
                pattern: ValuePatterns.size,
                message: "Write a size as a number and a unit, like 45MB, 800 KB or 1.5GB (units B, KB, MB, GB, KiB, MiB, GiB); more than 0.",
                examples: ["45MB", "800KB", "1.5GB"])),
            ("storage", SchemaKeywords.enumeration(ContentStorage.self, "Where downloaded content is kept (not for bundle content, which is inside the app).")),
        ],
        required: ["source"],
        more: [("allOf", [
            SchemaKeywords.when(
                SchemaKeywords.keyEquals("source", ContentSource.bundle.rawValue),
                then: ["required": ["path"], "properties": SchemaKeywords.forbidden(["storage"])]),
        ])])
}
