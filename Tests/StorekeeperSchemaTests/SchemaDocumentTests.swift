import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
@testable import StorekeeperSchema
import Testing

/// The schema itself: valid draft 2020-12, the same bytes as the repository's
/// copy, and described everywhere an editor shows a description.
@Suite struct SchemaDocumentTests {
    @Test func jsonschemaAcceptsTheSchema() throws {
        try PythonSchemaValidator.checkSchema()
        // And refuses a broken one, so the check above is a check.
        #expect(throws: PythonSchemaValidator.Failure.self) {
            try PythonSchemaValidator.checkSchema(#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "objet"}"#)
        }
    }

    @Test func theRepositoryCopyIsCurrent() throws {
        let file = SchemaTestPaths.root.appendingPathComponent(CatalogSchema.repositoryPath)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == CatalogSchema.text, "\(CatalogSchema.repositoryPath) is stale; regenerate it: \(CatalogSchema.regenerateCommand)")
    }

    @Test func theTextIsStableAndParsesBackToTheDocument() throws {
        let text = CatalogSchema.text
        #expect(text == CatalogSchema.text)
        #expect(text.hasSuffix("}\n"))
        #expect(!text.contains("\t"))
        #expect(text.split(separator: "\n").allSatisfy { line in line.prefix { $0 == " " }.count % 2 == 0 })
        #expect(try JSONParser().parse(text) == CatalogSchema.document)
    }

    @Test func itIdentifiesItself() throws {
        guard case .object(let members) = CatalogSchema.document else { Issue.record("not an object"); return }
        #expect(members.first { $0.key == "$schema" }?.value == "https://json-schema.org/draft/2020-12/schema")
        #expect(members.first { $0.key == "$id" }?.value == "https://storekeeper.dev/schemas/catalog-1.json")
        #expect(members.first { $0.key == "title" }?.value == "Storekeeper catalog, format version 1")
    }

    @Test func everyPropertyAndEveryEnumerationIsDescribed() {
        let definitions = Dictionary(CatalogSchema.definitions.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var properties = 0
        func describedAt(_ schema: JSONValue) -> Bool {
            guard case .object(let members) = schema else { return false }
            if members.contains(where: { $0.key == "description" }) { return true }
            if case .string(let reference)? = members.first(where: { $0.key == "$ref" })?.value,
               let target = definitions[String(reference.dropFirst("#/$defs/".count))] {
                return describedAt(target)
            }
            return false
        }
        func visit(_ value: JSONValue, at path: String) {
            switch value {
            case .object(let members):
                for (key, child) in members {
                    if key == "properties", case .object(let named) = child {
                        for (name, schema) in named {
                            // A `false` or a bare constraint under if/then restates a property described elsewhere.
                            guard case .object(let inner) = schema, inner.contains(where: { ["type", "$ref", "anyOf"].contains($0.key) }) else { continue }
                            properties += 1
                            #expect(describedAt(schema), "\(path)/properties/\(name) has no description")
                        }
                    }
                    // A vocabulary shown to authors (described); not an enum inside a condition.
                    if key == "enum", case .array(let values) = child, values.count > 1, members.contains(where: { $0.key == "description" }) {
                        let descriptions = members.first { $0.key == "enumDescriptions" }?.value
                        if case .array(let texts)? = descriptions {
                            #expect(texts.count == values.count, "\(path): \(values.count) values, \(texts.count) descriptions")
                        } else {
                            Issue.record("\(path) has an enum without enumDescriptions")
                        }
                    }
                    visit(child, at: path + "/" + key)
                }
            case .array(let items):
                for (index, item) in items.enumerated() { visit(item, at: path + "/\(index)") }
            default:
                break
            }
        }
        visit(CatalogSchema.document, at: "")
        #expect(properties > 60)
    }

    @Test func everyReferenceLeadsToADefinition() {
        let names = Set(CatalogSchema.definitions.map(\.key))
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for (key, child) in members {
                    if key == "$ref", case .string(let reference) = child {
                        #expect(reference.hasPrefix("#/$defs/") && names.contains(String(reference.dropFirst(8))), "\(reference)")
                    }
                    visit(child)
                }
            case .array(let items): items.forEach(visit)
            default: break
            }
        }
        visit(CatalogSchema.document)
    }
}
