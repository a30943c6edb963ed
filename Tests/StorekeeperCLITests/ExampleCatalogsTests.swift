import Foundation
import Testing

/// The repository's `Catalogs/` directory, as the README runs it:
/// `swift run storekeeper validate Catalogs`.
@Suite("Example catalogs")
struct ExampleCatalogsTests {
    /// Every `*.yaml` / `*.yml` file below `Catalogs/`, relative to it,
    /// scenarios (`*/scenarios/*`, not catalogs: validate skips them) excepted.
    static func yamlFiles() throws -> [String] {
        let root = PackagePaths.catalogs
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard !path.contains("/scenarios/") else { continue }
            if path.hasSuffix(".yaml") || path.hasSuffix(".yml") { files.append(path) }
        }
        return files.sorted()
    }

    /// Whether a file has a top-level `catalog` key (a line starting `catalog:`).
    static func isCatalog(_ relativePath: String) throws -> Bool {
        let text = try String(contentsOf: PackagePaths.catalogs.appendingPathComponent(relativePath), encoding: .utf8)
        return text.split(separator: "\n").contains { $0.hasPrefix("catalog:") }
    }

    @Test("the examples are 3 catalogs, 2 inkwell fragments and rocket-racer's storekeeper.yml")
    func fileCount() throws {
        let files = try Self.yamlFiles()
        let configurations = files.filter { $0.hasSuffix("/storekeeper.yml") }
        let catalogs = try files.filter(Self.isCatalog)
        let fragments = try files.filter { try !Self.isCatalog($0) && !configurations.contains($0) }
        #expect(files.count == 6, "\(files)")
        #expect(configurations == ["rocket-racer/storekeeper.yml"], "\(configurations)")
        #expect(catalogs.count == 3, "\(catalogs)")
        #expect(fragments.count == 2, "\(fragments)")
        #expect(fragments.allSatisfy { $0.hasPrefix("inkwell/") }, "\(fragments)")
    }

    @Test("`validate Catalogs` from the package root exits 0: no problems in 6 files")
    func textFromPackageRoot() async throws {
        let fileCount = try Self.yamlFiles().count
        let result = try await CLI.run(["validate", "Catalogs"], in: PackagePaths.root)
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in \(fileCount) files\n")
        #expect(result.stdout == "no problems in 6 files\n")
        #expect(result.stderr == "")
    }

    @Test("`validate PATH/Catalogs` with an absolute path exits 0 too")
    func absolutePath() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run("validate", PackagePaths.catalogs.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 6 files\n")
    }

    @Test("`--strict` still exits 0: the examples have no warnings either")
    func strictExamples() async throws {
        let result = try await CLI.run(["validate", "--strict", "Catalogs"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no problems in 6 files\n")
    }

    @Test("JSON for the examples: no diagnostics, 6 files, 0 errors, 0 warnings")
    func json() async throws {
        let result = try await CLI.run(["validate", "--format", "json", "Catalogs"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true)
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 6)
        #expect(summary["errors"] as? Int == 0)
        #expect(summary["warnings"] as? Int == 0)
    }

    @Test("each example catalog validates alone, its fragments counted with it")
    func eachCatalog() async throws {
        let expected = [
            "Catalogs/daily-planet/catalog.yaml": "no problems in 1 file\n",
            "Catalogs/inkwell/catalog.yaml": "no problems in 3 files\n",
            "Catalogs/rocket-racer/catalog.yaml": "no problems in 2 files\n",  // and its storekeeper.yml
        ]
        for (path, output) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try await CLI.run(["validate", path], in: PackagePaths.root)
            #expect(result.status == 0, "\(path): \(result)")
            #expect(result.stdout == output, "\(path)")
        }
    }
}
