import Foundation
import Testing

/// The README's examples are real: each catalog it shows, validated, prints
/// exactly the output the README shows after it, with the status it names.
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        var file: String
        var catalog: String
        var output: String
        var status: Int32
        var description: String { file }
    }

    /// Every "`storekeeper validate FILE` prints ... and exits with status N"
    /// with the yaml block before it and the output block after it.
    static func examples() throws -> [Example] {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: "```yaml\\n((?:(?!```)[\\s\\S])*)```\\n\\n`storekeeper validate ([a-z-]+\\.yaml)` prints[^`]*?exits with\\s+status (\\d):\\n\\n```\\n((?:(?!```)[\\s\\S])*)```")
        let text = readme as NSString
        return pattern.matches(in: readme, range: NSRange(location: 0, length: text.length)).map { match in
            Example(
                file: text.substring(with: match.range(at: 2)), catalog: text.substring(with: match.range(at: 1)),
                output: text.substring(with: match.range(at: 4)), status: Int32(text.substring(with: match.range(at: 3))) ?? -1)
        }
    }

    @Test func theReadmeHasItsExamples() throws {
        #expect(try Self.examples().map(\.file) == ["space-miner.yaml", "coins.yaml"])
    }

    @Test(arguments: try ReadmeExamplesTests.examples())
    func exampleOutputIsReal(_ example: Example) async throws {
        let workspace = try Workspace()
        try workspace.write(example.file, example.catalog)
        let result = try await workspace.run("validate", example.file)
        #expect(result.status == example.status, "\(result)")
        #expect(result.stdout == example.output)
    }
}
