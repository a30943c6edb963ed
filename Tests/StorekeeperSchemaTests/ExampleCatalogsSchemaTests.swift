import Foundation
import StorekeeperCore
@testable import StorekeeperSchema
import StorekeeperYAML
import Testing

/// Every catalog and fragment under `Catalogs/` passes the schema, and
/// names it on its first line, where the YAML language server looks.
@Suite struct ExampleCatalogsSchemaTests {
    static let files: [URL] = (try? SchemaTestPaths.exampleCatalogFiles()) ?? []

    @Test func everyCatalogAndFragmentPassesTheSchema() throws {
        #expect(Self.files.count >= 5, "found \(Self.files.map(\.lastPathComponent))")
        let documents = try Self.files.map { try YAMLInstance(parsedDocument($0).root.orThrow()).value.json }
        let results = try PythonSchemaValidator.errors(of: documents)
        for (file, errors) in zip(Self.files, results) {
            #expect(errors.isEmpty, "\(file.path):\n\(errors.map(\.description).joined(separator: "\n"))")
        }
        // Both kinds of file are among them, so both branches of the schema were taken.
        #expect(Self.files.contains { $0.path.contains("/fragments/") })
        #expect(Self.files.contains { $0.lastPathComponent == "catalog.yaml" })
    }

    @Test(arguments: files)
    func theFirstLineNamesTheSchemaByARelativePathThatLeadsToIt(_ file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let prefix = "# yaml-language-server: $schema="
        let first = String(text.prefix { $0 != "\n" })
        try #require(first.hasPrefix(prefix), "\(file.lastPathComponent) starts with \(first)")
        let target = file.deletingLastPathComponent().appendingPathComponent(String(first.dropFirst(prefix.count))).standardized
        #expect(target.path == SchemaTestPaths.root.appendingPathComponent(CatalogSchema.repositoryPath).standardized.path)
        #expect(FileManager.default.fileExists(atPath: target.path))
    }
}
