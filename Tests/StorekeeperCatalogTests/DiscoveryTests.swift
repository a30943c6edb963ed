import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// `CatalogValidator`: which files are validated when a directory is named,
/// and the errors that stop a run before it starts.
@Suite struct DiscoveryTests {
    static let catalog = CatalogFixture().addingHeader("include: [fragments/a.yaml]").text
    static let fragment = IncludesTests.fragment(id: "com.example.shop.a", name: "A")

    static let folder: [String: String] = [
        "shop/catalog.yaml": catalog,
        "shop/fragments/a.yaml": fragment,
        "shop/notes.yaml": "title: not a catalog\nitems: [1, 2]\n",
        "shop/broken.yaml": "# A catalog being written.\ncatalog: broken\napp: [\n",
        "shop/junk.yaml": "foo: [\n",
        "shop/readme.md": "catalog: this is not YAML to check\n",
        "shop/.drafts/draft.yaml": "catalog: Draft\n",
        "shop/nested/other.yml": CatalogFixture().text.replacingFirst("catalog: test-shop", with: "catalog: other-shop"),
    ]

    func validate(_ paths: [String], files: [String: String] = DiscoveryTests.folder) throws -> ValidationReport {
        try CatalogValidator(loader: CatalogLoader(reader: InMemorySourceReader(files))).validate(paths)
    }

    @Test func aDirectoryIsSearchedForCatalogs() throws {
        let report = try validate(["shop"])
        // Read: the two catalogs, the fragment the first includes, and the broken catalog.
        #expect(report.filesChecked == 4)
        #expect(!report.diagnostics.isEmpty)
        // Only the broken catalog has problems: its syntax error is reported.
        #expect(Set(report.diagnostics.map(\.location.file)) == ["shop/broken.yaml"])
        #expect(report.diagnostics.allSatisfy { $0.rule == YAMLRuleID.syntax })
        #expect(report.diagnostics.first?.location.line == 4)
        #expect(report.fails())
        #expect(report.errorCount >= 1)
    }

    @Test func aBrokenFileWithoutACatalogLineIsNotACatalog() throws {
        var files = Self.folder
        files["shop/broken.yaml"] = nil
        let report = try validate(["shop"], files: files)
        expectExactly(report.diagnostics, sites: [])
        #expect(report.filesChecked == 3)
        #expect(!report.fails(strict: true))
    }

    @Test func theRootFolderYieldsPathsWithoutADotPrefix() throws {
        let files = ["catalog.yaml": CatalogFixture().with("price", "free").text, "fragment.yaml": "products: []\n"]
        let report = try validate(["."], files: files)
        expectExactly(report.diagnostics, sites: [("invalid-price", "catalog.yaml", 13, 12)])
        #expect(report.filesChecked == 1)
    }

    @Test func aCatalogNamedTwiceIsCheckedOnce() throws {
        let files = ["shop/catalog.yaml": CatalogFixture().with("price", "free").text]
        let report = try validate(["shop/catalog.yaml", "shop", "./shop/catalog.yaml"], files: files)
        expectExactly(report.diagnostics, sites: [("invalid-price", "shop/catalog.yaml", 13, 12)])
        #expect(report.filesChecked == 1)
    }

    @Test func aFragmentSharedByTwoCatalogsIsReportedOnce() throws {
        let sharedFragment = IncludesTests.fragment(id: "com.example.shared", name: "Shared").replacingFirst("price: 1", with: "price: free")
        let files = [
            "two/first.yaml": CatalogFixture().addingHeader("include: [common/shared.yaml]").text,
            "two/second.yaml": CatalogFixture().addingHeader("include: [common/shared.yaml]").text
                .replacingFirst("catalog: test-shop", with: "catalog: second-shop"),
            "two/common/shared.yaml": sharedFragment,
        ]
        let report = try validate(["two"], files: files)
        expectExactly(report.diagnostics, sites: [("invalid-price", "two/common/shared.yaml", 5, 12)])
        #expect(report.filesChecked == 3)
    }

    @Test func warningsFailOnlyWhenStrict() throws {
        let files = ["catalog.yaml": CatalogFixture().text.replacingFirst("  bundle-id: com.example.shop", with: "  bundle-id: com.example.shop\n  minimum-os: 16.0")]
        let report = try validate(["catalog.yaml"], files: files)
        expectExactly(report.diagnostics, sites: [("unquoted-version", "catalog.yaml", 4, 15)])
        #expect(report.warningCount == 1 && report.errorCount == 0)
        #expect(!report.fails())
        #expect(report.fails(strict: true))
    }

    // MARK: Files named explicitly

    @Test func anExplicitlyNamedFragmentIsNotACatalog() throws {
        let report = try validate(["shop/fragments/a.yaml"])
        expectExactly(report.diagnostics, sites: [("not-a-catalog", "shop/fragments/a.yaml", 1, 1)])
        try expectDiagnostic(
            report.diagnostics, "not-a-catalog", at: 1, 1, file: "shop/fragments/a.yaml",
            mentions: ["no top-level `catalog` key", "validate that one"])
        #expect(report.filesChecked == 1)
    }

    @Test func anExplicitlyNamedFileIsValidatedWhateverItsExtension() throws {
        let report = try validate(["shop/readme.md"])
        // It is a mapping with a `catalog` key: a (very incomplete) catalog.
        #expect(report.diagnostics.contains { $0.rule == "missing-key" && $0.location.file == "shop/readme.md" })
    }

    @Test func anExplicitlyNamedCatalogWithItsFragment() throws {
        let report = try validate(["shop/catalog.yaml"])
        expectExactly(report.diagnostics, sites: [])
        #expect(report.filesChecked == 2)
    }

    @Test func aFileOverTheSizeLimitIsReportedNotSkipped() throws {
        // Too large to read, so it cannot be told apart from a catalog: it is reported.
        let files = [
            "big/catalog.yaml": CatalogFixture().text,
            "big/huge.yaml": "products:\n" + String(repeating: "  # padding\n", count: 100),
        ]
        let loader = CatalogLoader(reader: InMemorySourceReader(files), limits: YAMLLimits(maxFileSize: 1_000))
        let report = try CatalogValidator(loader: loader).validate(["big"])
        expectExactly(report.diagnostics, sites: [(YAMLRuleID.limit, "big/huge.yaml", 1, 1)])
        try expectDiagnostic(report.diagnostics, YAMLRuleID.limit, at: 1, 1, file: "big/huge.yaml", mentions: ["over the limit"])
        #expect(report.filesChecked == 2)
    }

    // MARK: Input errors

    @Test func aMissingPathIsAnInputError() throws {
        #expect(throws: ValidationInputError.notFound("nowhere")) {
            try validate(["nowhere"])
        }
        #expect(throws: ValidationInputError.notFound("shop/missing.yaml")) {
            try validate(["shop/catalog.yaml", "shop/missing.yaml"])
        }
        #expect(ValidationInputError.notFound("nowhere").description.mentions("no such file or directory: nowhere"))
    }

    @Test func aDirectoryWithoutCatalogsIsAnInputError() throws {
        let files = ["docs/notes.yaml": "title: x\n", "docs/more/list.yml": "- a\n", "docs/catalog.txt": "catalog: x\n"]
        #expect(throws: ValidationInputError.noCatalogs("docs")) {
            try validate(["docs"], files: files)
        }
        #expect(ValidationInputError.noCatalogs("docs").description.mentions("no catalog found under docs"))
    }

    @Test func hiddenFoldersAreSkipped() throws {
        let files = ["site/.build/catalog.yaml": CatalogFixture().text]
        #expect(throws: ValidationInputError.noCatalogs("site")) {
            try validate(["site"], files: files)
        }
    }
}
