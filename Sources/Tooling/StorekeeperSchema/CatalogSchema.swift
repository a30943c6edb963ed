import StorekeeperCore
import StorekeeperDiagnostics
public import StorekeeperJSON

/// The JSON Schema (draft 2020-12) of the catalog format, version 1, for
/// editors: the YAML language server (VS Code's YAML extension and others)
/// reads it through a `# yaml-language-server: $schema=...` line and offers
/// completion, descriptions on hover and inline errors.
///
/// The schema is built from the catalog's own vocabulary (its enumerations'
/// cases, the built-in steps, the store's error names, the decoder's
/// patterns and ranges), so it follows the code. One schema covers catalog
/// files and the fragments they include: a file with a top-level `catalog`
/// key is a catalog, any other a fragment.
///
/// ```swift
/// let json = CatalogSchema.text   // what `storekeeper schema` prints
/// ```
public enum CatalogSchema {
    /// The schema's identifier.
    public static let identifier = "https://storekeeper.dev/schemas/catalog-1.json"

    /// Where the repository keeps the schema, relative to the package root.
    public static let repositoryPath = "schema/catalog.schema.json"

    /// The command that writes the repository's copy again.
    public static let regenerateCommand = "swift run storekeeper schema --output \(repositoryPath)"

    /// The schema as printed: 2-space indentation, arrays of plain values on
    /// one line, members in a fixed order, a newline at the end. The same
    /// bytes on every run.
    public static var text: String {
        JSONWriter(indentation: 2, inlineScalarArrays: true).serialize(document) + "\n"
    }

    /// The schema as a JSON value.
    public static var document: JSONValue {
        .object([
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("$id", .string(identifier)),
            ("title", "Storekeeper catalog, format version 1"),
            ("description", .string(description)),
            ("type", "object"),
            ("properties", .object(TopLevelSchema.properties)),
            ("additionalProperties", false),
            ("if", ["required": ["catalog"]]),
            ("then", SchemaKeywords.reference("catalog-file")),
            ("else", SchemaKeywords.reference("fragment-file")),
            ("$defs", .object(definitions)),
        ])
    }

    /// What the schema says and what it leaves to the CLI.
    static let description = """
        An in-app purchase catalog (a file with a top-level 'catalog' key) or a fragment that a catalog includes \
        (any other file). See docs/format.md. Checked here: every key and its kind, the allowed values, names, \
        ids, prices, periods, locales, sizes and URLs, and what each product type takes. Checked only by \
        'storekeeper validate' (see docs/editors.md): that features, balances and groups are declared; that ids, \
        reference names and names are unique across the catalog and its fragments; includes (files exist, no \
        cycles); an offer's price below the subscription's; Apple-hosted content of at most 2 GB; content paths \
        that climb out of their root; custom rules' steps and the plans they make; and the policy rules from the \
        In-App Purchase guide (storekeeper rules).
        """

    /// Everything referred to by `$ref`, in a fixed order.
    static var definitions: [(key: String, value: JSONValue)] {
        [
            ("catalog-file", TopLevelSchema.catalogFile),
            ("fragment-file", TopLevelSchema.fragmentFile),
            ("product", ProductSchema.definition),
            ("delivery", DeliverySchema.definition),
            ("persistence", PersistenceSchema.persistence),
            ("restore", PersistenceSchema.restore),
            ("offer", OfferSchema.introductoryOffer),
            ("rule", RuleSchema.definition),
        ] + ValueDefinitions.definitions
    }
}
