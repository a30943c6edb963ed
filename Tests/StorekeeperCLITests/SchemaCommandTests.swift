import Foundation
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import Testing

/// `storekeeper schema`, end to end: it prints the repository's copy of the
/// schema byte for byte, and `--output` writes the same bytes.
@Suite struct SchemaCommandTests {
    static let shipped = PackagePaths.root.appendingPathComponent("schema/catalog.schema.json")

    @Test func printsTheShippedSchema() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("schema")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let shipped = try Data(contentsOf: Self.shipped)
        #expect(result.stdoutData == shipped, "schema/catalog.schema.json is stale; regenerate it: swift run storekeeper schema --output schema/catalog.schema.json")
        guard case .object(let members) = try JSONParser().parse(Array(result.stdoutData)) else {
            Issue.record("not a JSON object")
            return
        }
        #expect(members.first { $0.key == "$schema" }?.value == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func writesTheSchemaToAFile() async throws {
        let workspace = try Workspace()
        try workspace.write("schema.json", "old contents")
        for arguments in [["schema", "--output", "schema.json"], ["schema", "-o", "nested.json"]] {
            let result = try await CLI.run(arguments, in: workspace.url)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
            let written = try Data(contentsOf: workspace.url.appendingPathComponent(arguments[2]))
            #expect(written == (try Data(contentsOf: Self.shipped)))
        }
    }

    @Test func aFileThatCannotBeWrittenExitsWith2() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("schema", "--output", "no/such/folder/schema.json")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cannot write no/such/folder/schema.json"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("no").path))
    }

    @Test func theHelpSaysHowToRegenerateTheCopy() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("schema", "--help")
        #expect(result.status == 0, "\(result)")
        // The help is wrapped to the terminal's width: compare words.
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("swift run storekeeper schema --output schema/catalog.schema.json"), "\(result)")
        #expect(result.stdout.contains("--output"), "\(result)")
    }

    @Test func anUnexpectedArgumentIsAUsageError() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("schema", "catalog.yaml")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
