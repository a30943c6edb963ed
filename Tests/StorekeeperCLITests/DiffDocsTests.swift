import Foundation
import Testing

/// docs/diff.md's example is real: its two catalogs, run through the binary,
/// print exactly the output the page shows, with the status it says.
@Suite("docs/diff.md")
struct DiffDocsTests {
    /// The fenced block after `<!-- example: NAME -->`.
    static func block(_ name: String, in text: String) throws -> String {
        let marker = try #require(text.range(of: "<!-- example: \(name) -->\n"), "docs/diff.md marks the \(name) block")
        let rest = text[marker.upperBound...]
        let open = try #require(rest.range(of: "\n"))  // the opening fence line
        let close = try #require(rest[open.upperBound...].range(of: "```\n"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test("the example's output is what the command prints, and it exits 1")
    func example() async throws {
        let page = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/diff.md"), encoding: .utf8)
        let workspace = try Workspace()
        try workspace.write("old.yaml", try Self.block("old.yaml", in: page))
        try workspace.write("new.yaml", try Self.block("new.yaml", in: page))
        let result = try await workspace.run("diff", "old.yaml", "new.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(page.contains("`storekeeper diff old.yaml new.yaml` prints this and exits with status 1"))
        #expect(result.stdout == (try Self.block("output", in: page)))
    }
}
