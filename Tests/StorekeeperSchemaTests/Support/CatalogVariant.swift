import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
@testable import StorekeeperSchema
import StorekeeperYAML

/// A valid catalog with one place left open, and the values to write there:
/// for comparing what the CLI and the schema accept, value by value.
struct CatalogVariant: Sendable, CustomStringConvertible {
    /// What the open place is.
    var field: String
    /// The catalog, with `VALUE` where each value goes.
    var template: String
    /// The values as YAML text (quoted where they are meant as text).
    var values: [String]

    var description: String { field }

    func catalog(with value: String) -> String {
        template.replacingOccurrences(of: "VALUE", with: value)
    }

    /// What each side makes of one value.
    struct Verdict: CustomStringConvertible {
        var value: String
        var cliErrors: [Diagnostic]
        var schemaErrors: [SchemaError]
        var cliAccepts: Bool { cliErrors.isEmpty }
        var schemaAccepts: Bool { schemaErrors.isEmpty }

        var description: String {
            "\(value): CLI \(cliAccepts ? "accepts" : "refuses (\(cliErrors.map { "\($0.rule): \($0.message)" }.joined(separator: "; ")))"), "
                + "schema \(schemaAccepts ? "accepts" : "refuses (\(schemaErrors.filter { $0.depth == 0 }.map(\.description).joined(separator: "; ")))")"
        }
    }

    /// Both sides' verdicts on every value (one run of Python for all of them).
    func verdicts() throws -> [Verdict] {
        let catalogs = values.map(catalog(with:))
        let documents = try catalogs.map { try YAMLInstance(parsedDocument($0).root.orThrow()).value.json }
        let schemaErrors = try PythonSchemaValidator.errors(of: documents)
        return try zip(values, zip(catalogs, schemaErrors)).map { value, pair in
            Verdict(value: value, cliErrors: try CatalogCheck.errors(ofCatalog: pair.0), schemaErrors: pair.1)
        }
    }

    /// A value as YAML double-quoted text (JSON's quoting is YAML's too).
    static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

    /// The catalog most variants start from: one non-consumable.
    static let base = """
        catalog: demo
        app: {bundle-id: com.example.demo, minimum-os: "15.0"}
        features: [gold]
        products:
          - id: com.example.demo.gold
            type: non-consumable
            reference-name: Gold
            price: "0.99"
            localizations: {en-US: {title: Gold, description: Shiny}}
            delivery: {model: built-in, unlocks: [gold]}
            persistence: receipt
            restore: receipt-refresh

        """

    /// A catalog with one auto-renewable subscription, billed monthly.
    static let subscription = """
        catalog: demo
        app: {bundle-id: com.example.demo}
        groups: {pro: {name: Demo Pro}}
        products:
          - id: com.example.demo.pro
            type: auto-renewable-subscription
            reference-name: Pro
            price: "3.99"
            group: pro
            period: P1M
            localizations: {en-US: {title: Pro, description: Everything}}
            delivery: built-in
            persistence: receipt
            restore: receipt-refresh

        """

    /// `base` with one text replaced.
    static func base(replacing old: String, with new: String) -> String {
        precondition(base.contains(old), old)
        return base.replacingOccurrences(of: old, with: new)
    }

    static func subscription(replacing old: String, with new: String) -> String {
        precondition(subscription.contains(old), old)
        return subscription.replacingOccurrences(of: old, with: new)
    }
}
