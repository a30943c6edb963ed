import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperSchema
import StorekeeperYAML
import Testing

/// Each broken catalog of `Fixtures/broken/` fails for the same reason both
/// ways: `storekeeper validate` (in process) reports one error, with the rule
/// id and position its header names, and Python's `jsonschema` reports an
/// error at the JSON node written at that position, with a keyword that
/// means the same, and nothing elsewhere.
@Suite struct BrokenCatalogsTests {
    /// Which JSON Schema keywords say what each of the CLI's rule ids says.
    static let keywords: [String: Set<String>] = [
        "missing-key": ["required", "minItems", "minProperties"],
        "unknown-key": ["additionalProperties", "unevaluatedProperties", "propertyNames"],
        "fragment-key": ["propertyNames"],
        // An enumeration's value; `minimum-os`, the one value of this id that is not from a list, is a pattern.
        "invalid-value": ["enum", "const", "pattern"],
        "unsupported-format": ["enum", "const"],
        // A value of the wrong kind, or empty text.
        "wrong-kind": ["type", "minLength"],
        "boolean-spelling": ["type"],
        "out-of-range": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength"],
        "invalid-name": ["pattern", "minLength", "maxLength"],
        "invalid-price": ["pattern", "minimum", "maximum"],
        "invalid-period": ["pattern"],
        "invalid-locale": ["pattern"],
        "invalid-size": ["pattern"],
        "content-path": ["pattern", "minLength"],
        "insecure-url": ["pattern"],
        "include": ["pattern"],
        // A key that does not apply: a `false` subschema ("Property X is not allowed" in editors).
        "not-applicable": ["false", "not"],
        "duplicate-name": ["uniqueItems"],
        // Reported at the catalog's name; the schema requires `products` of the file.
        "no-products": ["required"],
    ]

    /// Keywords that report on the mapping or list holding the node they are
    /// about (a missing or unknown key, a repeated item), not on the node.
    /// `false` is here because jsonschema reports a `false` subschema at the
    /// mapping that holds the key.
    static let containerKeywords: Set<String> = ["required", "additionalProperties", "unevaluatedProperties", "propertyNames", "uniqueItems", "false"]

    static let fixtures: [BrokenCatalog] = (try? BrokenCatalog.load()) ?? []

    /// jsonschema's errors for every fixture, from one run of Python.
    static let schemaErrors: Result<[String: [SchemaError]], PythonSchemaValidator.Failure> = {
        do {
            let documents = try fixtures.map { try YAMLInstance(parsedDocument($0.file).root.orThrow()).value.json }
            let errors = try PythonSchemaValidator.errors(of: documents)
            return .success(Dictionary(uniqueKeysWithValues: zip(fixtures.map(\.name), errors)))
        } catch let failure as PythonSchemaValidator.Failure {
            return .failure(failure)
        } catch {
            return .failure(PythonSchemaValidator.Failure(description: "\(error)"))
        }
    }()

    @Test func thereIsAFixtureForEveryRuleTheSchemaCanCatch() throws {
        #expect(Self.fixtures.count >= 20)
        for file in try FileManager.default.contentsOfDirectory(atPath: SchemaTestPaths.brokenFixtures.path) where file.hasSuffix(".yaml") {
            #expect(throws: Never.self, "\(file)") { try BrokenCatalog.read(SchemaTestPaths.brokenFixtures.appendingPathComponent(file)) }
        }
        let covered = Set(Self.fixtures.map(\.rule))
        for rule in Self.keywords.keys.sorted() {
            #expect(covered.contains(rule), "no broken catalog shows \(rule)")
        }
        for rule in covered {
            #expect(Self.keywords[rule] != nil, "\(rule) has no keywords in the table")
        }
    }

    @Test(arguments: fixtures)
    func theCLIAndTheSchemaFindTheSameProblem(_ fixture: BrokenCatalog) throws {
        // The CLI: exactly one error, the one the header names.
        let (diagnostics, path) = try CatalogCheck.errors(of: fixture)
        #expect(diagnostics.count == 1, "\(diagnostics.map { "\($0.location) \($0.rule): \($0.message)" })")
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.rule == fixture.rule, "\(diagnostic.message)")
        #expect(URL(fileURLWithPath: diagnostic.location.file).lastPathComponent == URL(fileURLWithPath: path).lastPathComponent)
        #expect((diagnostic.location.line, diagnostic.location.column) == (fixture.line, fixture.column), "\(diagnostic.location): \(diagnostic.message)")

        // The schema: an error at the node written there, with a keyword that means the same.
        let instance = try YAMLInstance(parsedDocument(fixture.file).root.orThrow())
        let locations = instance.locations(atLine: fixture.line, column: fixture.column)
        try #require(!locations.isEmpty, "no node starts at \(fixture.line):\(fixture.column)")
        let errors = try Self.schemaErrors.get()[fixture.name] ?? []
        let matching = try #require(Self.keywords[fixture.rule])
        let own = Set(locations.map(\.pointer))
        let holders = Set(locations.map { Self.parent(of: $0.pointer) })
        func matches(_ error: SchemaError) -> Bool {
            let viaPropertyNames = error.schemaPath.contains("propertyNames")
            let keywords = Set([error.keyword] + (viaPropertyNames ? ["propertyNames"] : []))
            guard !keywords.isDisjoint(with: matching) else { return false }
            if own.contains(error.pointer) { return true }
            return (viaPropertyNames || Self.containerKeywords.contains(error.keyword)) && holders.contains(error.pointer)
        }
        #expect(errors.contains(where: matches), "expected \(matching.sorted()) at \(own.sorted()); jsonschema said:\n\(errors.map(\.description).joined(separator: "\n"))")

        // And nothing else: every error is that one, or an anyOf whose alternatives include it.
        for (index, error) in errors.enumerated() where error.depth == 0 {
            let context = errors[(index + 1)...].prefix { $0.depth > 0 }
            #expect(matches(error) || context.contains(where: matches), "unrelated: \(error)")
        }
    }

    /// The pointer of the mapping or list that holds a node.
    static func parent(of pointer: String) -> String {
        guard let slash = pointer.lastIndex(of: "/") else { return "" }
        return String(pointer[..<slash])
    }
}

extension Optional {
    /// The value, or a thrown failure that says it was missing.
    func orThrow(_ what: String = "a value") throws -> Wrapped {
        guard let self else { throw PythonSchemaValidator.Failure(description: "missing \(what)") }
        return self
    }
}
