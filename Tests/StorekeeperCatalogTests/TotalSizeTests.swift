@testable import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// A catalog and its fragments together read at most `maxTotalSize` bytes:
/// the per-file limit alone let a catalog spread any size over many files.
@Suite struct TotalSizeTests {
    /// `shop/catalog.yaml` including three fragments, each under the per-file limit.
    static let files: [String: String] = {
        var files = ["shop/catalog.yaml": CatalogFixture().addingHeader("include: [a.yaml, b.yaml, c.yaml]").text]
        for name in ["a", "b", "c"] {
            files["shop/\(name).yaml"] = IncludesTests.fragment(id: "com.example.shop.\(name)", name: name.uppercased())
        }
        return files
    }()

    static func size(_ path: String) -> Int { files[path]?.utf8.count ?? 0 }

    static func load(total: Int?) -> CatalogLoadResult {
        CatalogLoader(reader: InMemorySourceReader(files), limits: YAMLLimits(maxFileSize: 4096, maxTotalSize: total)).load("shop/catalog.yaml")
    }

    @Test func theDefaultIs64MiBOrTheFileLimitWhenLarger() {
        #expect(YAMLLimits.default.maxTotalSize == 64 << 20)
        #expect(YAMLLimits(maxFileSize: 100 << 20).maxTotalSize == 100 << 20)
        #expect(YAMLLimits(maxFileSize: 100 << 20, maxTotalSize: 10).maxTotalSize == 10)
    }

    @Test func aCatalogWithinTheTotalLoadsWhole() {
        let exact = ["shop/catalog.yaml", "shop/a.yaml", "shop/b.yaml", "shop/c.yaml"].map(Self.size).reduce(0, +)
        let result = Self.load(total: exact)
        expectClean(result)
        #expect(result.catalog?.products.count == 4)
    }

    @Test func theFragmentThatGoesOverTheTotalIsReportedAtItsIncludeAndNotRead() throws {
        let total = ["shop/catalog.yaml", "shop/a.yaml", "shop/b.yaml", "shop/c.yaml"].map(Self.size).reduce(0, +) - 1
        let result = Self.load(total: total)
        expectExactly(result.diagnostics, sites: [("yaml-limit", "shop/catalog.yaml", 9, 27)])
        try expectDiagnostic(
            result.diagnostics, "yaml-limit", at: 9, 27, file: "shop/catalog.yaml",
            mentions: ["cannot include 'c.yaml'", "over the limit of \(ByteCount(total)) for a catalog and its fragments together", "--max-total-size"])
        #expect(result.files == ["shop/catalog.yaml", "shop/a.yaml", "shop/b.yaml"])
        #expect(result.catalog?.products.count == 3)
    }

    @Test func aCatalogFileOverTheTotalIsReportedAtItsStart() throws {
        let result = Self.load(total: 100)
        expectExactly(result.diagnostics, sites: [("yaml-limit", "shop/catalog.yaml", 1, 1)])
        try expectDiagnostic(result.diagnostics, "yaml-limit", at: 1, 1, file: "shop/catalog.yaml", mentions: ["for a catalog and its fragments together"])
        #expect(result.catalog == nil)
    }

    /// The total is per catalog: two catalogs sharing a fragment each have their own.
    @Test func everyCatalogHasItsOwnTotal() throws {
        var files = Self.files
        files["shop/other.yaml"] = Self.files["shop/catalog.yaml"]?
            .replacingFirst("test-shop", with: "other-shop").replacingFirst("com.example.shop.item", with: "com.example.other.item")
        // Room for the larger of the two (its names are a letter longer), not for both.
        let total = ["shop/catalog.yaml", "shop/a.yaml", "shop/b.yaml", "shop/c.yaml"].map(Self.size).reduce(0, +) + 10
        let validator = CatalogValidator(loader: CatalogLoader(
            reader: InMemorySourceReader(files), limits: YAMLLimits(maxFileSize: 4096, maxTotalSize: total)))
        let report = try validator.validate(["shop/catalog.yaml", "shop/other.yaml"])
        #expect(report.diagnostics.filter { $0.rule == "yaml-limit" }.isEmpty, "\(report.diagnostics)")
    }

    /// Searching a folder parses every YAML file to find the catalogs; it keeps
    /// the trees for loading only up to the total, or a folder of many large
    /// fragments would all be in memory before any include is counted.
    @Test func aFolderSearchKeepsTreesUpToTheTotalOnly() throws {
        let names = (0..<10).map { "f\($0).yaml" }
        var files = ["store/catalog.yaml": CatalogFixture().addingHeader("include: [\(names.joined(separator: ", "))]").text]
        for (index, name) in names.enumerated() {
            files["store/\(name)"] = IncludesTests.fragment(id: "com.example.shop.f\(index)", name: "F\(index)")
        }
        let fragmentSize = files["store/f0.yaml"]?.utf8.count ?? 0
        let total = (files["store/catalog.yaml"]?.utf8.count ?? 0) + 3 * fragmentSize
        let validator = CatalogValidator(loader: CatalogLoader(
            reader: InMemorySourceReader(files), limits: YAMLLimits(maxFileSize: 4096, maxTotalSize: total)))
        var cache = ParsedFiles()
        var danglingLinks: [String] = []
        #expect(try validator.discover(in: "store", cache: &cache, danglingLinks: &danglingLinks) == ["store/catalog.yaml"])
        let kept = cache.values.filter { $0.document != nil }.map(\.size).reduce(0, +)
        #expect(kept > 0 && kept <= total, "\(kept) bytes kept")
        // Validated, the fragments past the total are reported at their includes, each once.
        let report = try validator.validate(["store"])
        #expect(report.diagnostics.filter { $0.rule == "yaml-limit" }.count == 7, "\(report.diagnostics)")
    }
}
