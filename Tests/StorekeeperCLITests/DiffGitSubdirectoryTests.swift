import Foundation
import Testing

/// `storekeeper diff` reading the old side from git when run in a subfolder
/// of the repository: paths are relative to the current directory, and a
/// folder at the revision lists its own entries (git lists a tree relative to
/// the current folder unless told `--full-tree`).
@Suite("storekeeper diff from git, in a subfolder")
struct DiffGitSubdirectoryTests {
    /// A repository with the shop catalog under `Catalogs/shop/`, changed in the
    /// work tree as `DiffGitTests.repository()` changes it.
    static func repository() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("Catalogs/shop/catalog.yaml", DiffCommandTests.shop(products: "include: [more/extra.yaml]\n"))
        try workspace.write("Catalogs/shop/more/extra.yaml", DiffGitTests.fragment(price: "1.99"))
        try DiffGitTests.git(["init", "-q", "-b", "main"], in: workspace.url)
        try DiffGitTests.git(["add", "-A"], in: workspace.url)
        try DiffGitTests.git(["commit", "-q", "-m", "shop"], in: workspace.url)
        try workspace.write("Catalogs/shop/catalog.yaml", DiffCommandTests.shop(persistence: "user-defaults", products: "include: [more/extra.yaml]\n"))
        try workspace.write("Catalogs/shop/more/extra.yaml", DiffGitTests.fragment(price: "2.49"))
        return workspace
    }

    /// The rule, file and first note's file of each finding, from JSON output.
    static func findings(_ result: CLIResult) throws -> [String] {
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        return diagnostics.map { diagnostic in
            let note = (diagnostic["notes"] as? [[String: Any]])?.first?["file"] as? String ?? ""
            return "\(diagnostic["rule"] as? String ?? "") \(diagnostic["file"] as? String ?? "") \(note)"
        }
    }

    static let expected = [
        "diff-persistence shop/catalog.yaml main:shop/catalog.yaml",
        "diff-price shop/more/extra.yaml main:shop/more/extra.yaml",
    ]

    @Test("a directory, with --old-revision or REV:PATH, from a subfolder of the repository")
    func directoryFromASubfolder() async throws {
        let workspace = try Self.repository()
        let subfolder = workspace.url.appendingPathComponent("Catalogs", isDirectory: true)
        for arguments in [["--old-revision", "main", "shop"], ["main:shop", "shop"]] {
            let result = try await CLI.run(["diff", "--format", "json"] + arguments, in: subfolder)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(try Self.findings(result) == Self.expected, "\(arguments)")
        }
    }

    @Test("a file, with REV:PATH, from a subfolder of the repository")
    func fileFromASubfolder() async throws {
        let workspace = try Self.repository()
        let subfolder = workspace.url.appendingPathComponent("Catalogs", isDirectory: true)
        let result = try await CLI.run(["diff", "--format", "json", "main:shop/catalog.yaml", "shop/catalog.yaml"], in: subfolder)
        #expect(result.status == 1, "\(result)")
        #expect(try Self.findings(result) == Self.expected)
    }
}
