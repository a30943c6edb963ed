import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperSchema
import StorekeeperYAML
import Testing

/// Where the schema and `storekeeper validate` part ways, as docs/editors.md
/// lists: each case really does differ as the page says, so the page stays true.
@Suite struct KnownDifferencesTests {
    struct Difference: Sendable, CustomStringConvertible {
        var description: String
        var catalog: String
        var cliAccepts: Bool
        var schemaAccepts: Bool
    }

    static let base = CatalogVariant.base
    static func base(_ old: String, _ new: String) -> String { CatalogVariant.base(replacing: old, with: new) }

    static let differences: [Difference] = [
        // A number's digits are gone by the time a schema sees it.
        Difference(description: "an unquoted price with three decimal places", catalog: base("price: \"0.99\"", "price: 0.999"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "an unquoted price with an exponent", catalog: base("price: \"0.99\"", "price: 1e2"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a whole number with a leading zero", catalog: CatalogVariant.subscription(replacing: "period: P1M", with: "period: P1M\n    level: 01"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a whole number written with a decimal point", catalog: CatalogVariant.subscription(replacing: "period: P1M", with: "period: P1M\n    level: 1.0"), cliAccepts: false, schemaAccepts: true),
        // The CLI warns; a schema has only errors.
        Difference(description: "an unquoted minimum-os", catalog: base("minimum-os: \"15.0\"", "minimum-os: 15.0"), cliAccepts: true, schemaAccepts: false),
        // Plain true is text to the CLI and a boolean to editors.
        Difference(description: "where text or a name goes", catalog: base("{title: Gold,", "{title: true,"), cliAccepts: true, schemaAccepts: false),
        Difference(description: "where text or a name goes", catalog: base("features: [gold]", "features: [gold, true]"), cliAccepts: true, schemaAccepts: false),
        Difference(description: "where text or a name goes", catalog: base("reference-name: Gold", "reference-name: true"), cliAccepts: true, schemaAccepts: false),
        // YAML 1.2 numbers the CLI reads as written.
        Difference(description: "a number in another YAML notation", catalog: base("price: \"0.99\"", "price: +1"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a number in another YAML notation", catalog: base("price: \"0.99\"", "price: .5"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a number in another YAML notation", catalog: CatalogVariant.subscription(replacing: "period: P1M", with: "period: P1M\n    level: 0x2"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a number in another YAML notation", catalog: base("catalog: demo", "catalog: 0x1F"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a number in another YAML notation", catalog: base("catalog: demo", "catalog: demo\nformat: 0x1"), cliAccepts: false, schemaAccepts: true),
        // Text the CLI checks as a path or a bundle id; a number to the editor.
        Difference(description: "a number where a content path or a bundle id goes",
                   catalog: base("unlocks: [gold]}", "unlocks: [gold], content: {source: bundle, path: 2024}}"), cliAccepts: true, schemaAccepts: false),
        Difference(description: "a number where a content path or a bundle id goes",
                   catalog: base("bundle-id: com.example.demo", "bundle-id: 123.456"), cliAccepts: true, schemaAccepts: false),
        // What needs counting, or more than one value, or more than one file.
        Difference(description: "a content path that climbs out of its root",
                   catalog: base("unlocks: [gold]}", "unlocks: [gold], content: {source: bundle, path: ../a.plist}}"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "Apple-hosted content over 2 GB",
                   catalog: base("unlocks: [gold]}", "unlocks: [gold], content: {source: apple-hosted, size: 3GB}}"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a size too large to count",
                   catalog: base("unlocks: [gold]}", "unlocks: [gold], content: {source: server, size: 99999999999999GiB}}"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a feature that is not declared", catalog: base("unlocks: [gold]", "unlocks: [silver]"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a subscription group that is not declared", catalog: CatalogVariant.subscription(replacing: "group: pro", with: "group: basic"), cliAccepts: false, schemaAccepts: true),
        Difference(description: "a product id used twice",
                   catalog: base + base.split(separator: "\n").drop { !$0.hasPrefix("  - id") }.joined(separator: "\n").replacingOccurrences(of: "reference-name: Gold", with: "reference-name: Gold 2") + "\n",
                   cliAccepts: false, schemaAccepts: true),
        Difference(description: "an include of a file that does not exist", catalog: base("products:", "include: [missing.yaml]\nproducts:"), cliAccepts: false, schemaAccepts: true),
        // Both refuse, at different places.
        Difference(description: "grants on a product that is not a consumable",
                   catalog: base("features: [gold]", "features: [gold]\nbalances: [coins]").replacingOccurrences(of: "unlocks: [gold]}", with: "grants: {coins: 5}}"),
                   cliAccepts: false, schemaAccepts: false),
        Difference(description: "a catalog with no products and no include",
                   catalog: "catalog: demo\napp: {bundle-id: com.example.demo}\nproducts: []\n", cliAccepts: false, schemaAccepts: false),
    ]

    @Test func eachDifferenceIsReal() throws {
        let documents = try Self.differences.map { try YAMLInstance(parsedDocument($0.catalog).root.orThrow()).value.json }
        let schemaErrors = try PythonSchemaValidator.errors(of: documents)
        for (difference, errors) in zip(Self.differences, schemaErrors) {
            let cliErrors = try CatalogCheck.errors(ofCatalog: difference.catalog)
            #expect(cliErrors.isEmpty == difference.cliAccepts, "\(difference): CLI said \(cliErrors.map(\.message))")
            #expect(errors.isEmpty == difference.schemaAccepts, "\(difference): jsonschema said \(errors.map(\.description))")
        }
    }

    @Test func theListIsTheOneInTheDocs() throws {
        let docs = try String(contentsOf: SchemaTestPaths.root.appendingPathComponent("docs/editors.md"), encoding: .utf8)
        for difference in Self.differences {
            #expect(docs.contains(difference.description), "docs/editors.md does not mention \(difference.description)")
        }
    }
}
