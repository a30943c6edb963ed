import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct IncludesTests {
    /// A fragment with one valid non-consumable product.
    static func fragment(id: String, name: String, extra: String = "") -> String {
        """
        \(extra)products:
          - id: \(id)
            type: non-consumable
            reference-name: \(name)
            price: 1
            localizations: {en: {title: \(name), description: Something}}
            delivery: built-in
            persistence: receipt
            restore: none

        """
    }

    /// The fixture placed at `shop/catalog.yaml` with `include: [...]` on line 9.
    func catalog(including paths: String) -> CatalogFixture {
        var fixture = CatalogFixture().addingHeader("include: [\(paths)]")
        fixture.path = "shop/catalog.yaml"
        return fixture
    }

    // MARK: Relative paths

    @Test func includesAreRelativeToTheFileThatNamesThem() throws {
        let result = catalog(including: "fragments/a.yaml").load([
            "shop/fragments/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: "include: [b.yaml, ../common/c.yaml]\n"),
            "shop/fragments/b.yaml": Self.fragment(id: "com.example.shop.b", name: "B"),
            "shop/common/c.yaml": Self.fragment(id: "com.example.shop.c", name: "C"),
            // Decoys at the paths a resolution from the wrong folder would reach.
            "shop/b.yaml": "not: a fragment",
            "common/c.yaml": "not: a fragment",
        ])
        expectClean(result)
        #expect(result.files == ["shop/catalog.yaml", "shop/fragments/a.yaml", "shop/fragments/b.yaml", "shop/common/c.yaml"])
        let catalog = try #require(result.catalog)
        #expect(catalog.files == result.files)
        #expect(catalog.products.map(\.id.value) == ["com.example.shop.item", "com.example.shop.a", "com.example.shop.b", "com.example.shop.c"])
        #expect(catalog.product(id: "com.example.shop.b")?.location == SourceLocation(file: "shop/fragments/b.yaml", line: 2, column: 5))
    }

    @Test func dotSegmentsAreNormalized() throws {
        let result = catalog(including: "./fragments/../fragments/a.yaml").load([
            "shop/fragments/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectClean(result)
        #expect(result.files == ["shop/catalog.yaml", "shop/fragments/a.yaml"])
    }

    @Test func aCatalogPathIsNormalizedToo() throws {
        let result = CatalogLoader(reader: InMemorySourceReader(["shop/catalog.yaml": CatalogFixture().text])).load("./shop//catalog.yaml")
        expectClean(result)
        #expect(result.files == ["shop/catalog.yaml"])
    }

    @Test func aFragmentsDiagnosticsNameTheFragment() throws {
        let fragment = Self.fragment(id: "com.example.shop.a", name: "A").replacingFirst("price: 1", with: "price: free")
        let result = catalog(including: "fragments/a.yaml").load(["shop/fragments/a.yaml": fragment])
        expectExactly(result.diagnostics, sites: [("invalid-price", "shop/fragments/a.yaml", 5, 12)])
    }

    // MARK: Missing files, absolute paths, cycles

    @Test func aMissingFileIsReportedAtTheIncludeEntry() throws {
        let result = catalog(including: "fragments/a.yaml, fragments/missing.yaml").load([
            "shop/fragments/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 29)])
        try expectDiagnostic(
            result.diagnostics, "include", at: 9, 29, file: "shop/catalog.yaml",
            mentions: ["cannot include 'fragments/missing.yaml'", "no file shop/fragments/missing.yaml", "relative to shop/catalog.yaml"])
        #expect(result.files == ["shop/catalog.yaml", "shop/fragments/a.yaml"])
        #expect(result.catalog?.products.count == 2)
    }

    @Test func aMissingFileNamedByAFragmentIsReportedInTheFragment() throws {
        let result = catalog(including: "fragments/a.yaml").load([
            "shop/fragments/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: "include: [gone.yaml]\n"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/fragments/a.yaml", 1, 11)])
        try expectDiagnostic(
            result.diagnostics, "include", at: 1, 11, file: "shop/fragments/a.yaml",
            mentions: ["no file shop/fragments/gone.yaml", "relative to shop/fragments/a.yaml"])
    }

    @Test func anIncludeOfADirectoryIsReported() throws {
        let result = catalog(including: "fragments").load([
            "shop/fragments/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 9, 11, file: "shop/catalog.yaml", mentions: ["ending in .yaml or .yml"])
    }

    @Test func anIncludeOfADirectoryNamedLikeAFileIsReported() throws {
        let result = catalog(including: "fragments.yaml").load([
            "shop/fragments.yaml/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 9, 11, file: "shop/catalog.yaml", mentions: ["directory"])
    }

    @Test func anIncludeCannotLeaveTheFolderBeingValidated() throws {
        let result = catalog(including: "../secret.yaml").load(["secret.yaml": "features: [x]\n"])
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 9, 11, file: "shop/catalog.yaml", mentions: ["leaves the folder"])
    }

    @Test func includesNestAtMost32Deep() throws {
        var files = ["shop/c0.yaml": "include: [c1.yaml]\n"]
        for index in 1..<40 { files["shop/c\(index).yaml"] = "include: [c\(index + 1).yaml]\n" }
        files["shop/c40.yaml"] = "features: [x]\n"
        let result = catalog(including: "c0.yaml").load(files)
        let nesting = try #require(result.diagnostics.first { $0.message.contains("nest deeper") })
        #expect(nesting.rule == "include")
    }

    @Test(arguments: ["/etc/shop/a.yaml", "~/a.yaml"])
    func anAbsoluteIncludePathIsAnError(path: String) throws {
        let result = catalog(including: "'\(path)'").load(["/etc/shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A")])
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(
            result.diagnostics, "include", at: 9, 11, file: "shop/catalog.yaml",
            mentions: ["relative to the file that names them", path])
        #expect(result.files == ["shop/catalog.yaml"])
    }

    @Test func aCycleIsReportedWithANoteAtWhereItStarts() throws {
        // catalog -> a -> b -> a
        let result = catalog(including: "a.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: "include: [b.yaml]\n"),
            "shop/b.yaml": Self.fragment(id: "com.example.shop.b", name: "B", extra: "include: [a.yaml]\n"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/b.yaml", 1, 11)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "include", at: 1, 11, file: "shop/b.yaml",
            mentions: ["cycle", "shop/a.yaml → shop/b.yaml → shop/a.yaml", "remove it"])
        expectNote(diagnostic, at: 1, 11, file: "shop/a.yaml", mentions: ["cycle starts"])
        // Each file is still read once and its products kept.
        #expect(result.files == ["shop/catalog.yaml", "shop/a.yaml", "shop/b.yaml"])
        #expect(result.catalog?.products.count == 3)
    }

    @Test func aFragmentThatIncludesTheCatalogMakesACycle() throws {
        let result = catalog(including: "a.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: "include: [catalog.yaml]\n"),
        ])
        expectExactly(result.diagnostics, sites: [("include", "shop/a.yaml", 1, 11)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "include", at: 1, 11, file: "shop/a.yaml",
            mentions: ["shop/catalog.yaml → shop/a.yaml → shop/catalog.yaml"])
        expectNote(diagnostic, at: 9, 11, file: "shop/catalog.yaml")
    }

    @Test func aCatalogThatIncludesItself() throws {
        let result = catalog(including: "catalog.yaml").load()
        expectExactly(result.diagnostics, sites: [("include", "shop/catalog.yaml", 9, 11)])
        try expectDiagnostic(result.diagnostics, "include", at: 9, 11, file: "shop/catalog.yaml", mentions: ["cycle"])
        #expect(result.catalog?.products.count == 1)
    }

    @Test func aFragmentReachedTwiceIsReadOnce() throws {
        // catalog -> a -> common, catalog -> b -> common: a diamond, not a cycle.
        let result = catalog(including: "a.yaml, b.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: "include: [common.yaml]\n"),
            "shop/b.yaml": Self.fragment(id: "com.example.shop.b", name: "B", extra: "include: [common.yaml]\n"),
            "shop/common.yaml": Self.fragment(id: "com.example.shop.common", name: "Common"),
        ])
        expectClean(result)
        #expect(result.files == ["shop/catalog.yaml", "shop/a.yaml", "shop/common.yaml", "shop/b.yaml"])
        #expect(result.catalog?.products.map(\.id.value) == [
            "com.example.shop.item", "com.example.shop.a", "com.example.shop.common", "com.example.shop.b",
        ])
    }

    @Test func theSameFragmentListedTwiceIsReadOnce() throws {
        let result = catalog(including: "a.yaml, ./a.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectClean(result)
        #expect(result.files == ["shop/catalog.yaml", "shop/a.yaml"])
    }

    @Test func includeMustBeAList() throws {
        var fixture = CatalogFixture().addingHeader("include: a.yaml")
        fixture.path = "catalog.yaml"
        let result = fixture.load(["a.yaml": Self.fragment(id: "com.example.shop.a", name: "A")])
        expectExactly(result.diagnostics, [("wrong-kind", 9, 10)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 9, 10, mentions: ["'include' should be a list"])
    }

    // MARK: Fragments are limited to their keys

    @Test(arguments: ["app: {bundle-id: com.example.other}", "defaults: {restore: none}", "server: {url: https://x.example.com}", "format: 1"])
    func aFragmentCannotSetCatalogWideKeys(line: String) throws {
        let key = String(line.prefix { $0 != ":" })
        let result = catalog(including: "a.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.a", name: "A", extra: line + "\n"),
        ])
        expectExactly(result.diagnostics, sites: [("fragment-key", "shop/a.yaml", 1, 1)])
        try expectDiagnostic(
            result.diagnostics, "fragment-key", at: 1, 1, file: "shop/a.yaml",
            mentions: ["'\(key)' belongs in the catalog file", "products, groups, features, balances, rules, include"])
        // The rest of the fragment is still read.
        #expect(result.catalog?.product(id: "com.example.shop.a") != nil)
    }

    @Test func anIncludedCatalogIsAFragmentKeyError() throws {
        let other = "catalog: other\n" + Self.fragment(id: "com.example.shop.a", name: "A")
        let result = catalog(including: "other.yaml").load(["shop/other.yaml": other])
        expectExactly(result.diagnostics, sites: [("fragment-key", "shop/other.yaml", 1, 1)])
        try expectDiagnostic(
            result.diagnostics, "fragment-key", at: 1, 1, file: "shop/other.yaml",
            mentions: ["this included file is a catalog", "only fragments can be included"])
    }

    @Test func anIncludedFullCatalogReportsEachCatalogKey() throws {
        let other = """
            catalog: other
            app: {bundle-id: com.example.other}
            defaults: {restore: none}

            """ + Self.fragment(id: "com.example.shop.a", name: "A")
        let result = catalog(including: "other.yaml").load(["shop/other.yaml": other])
        expectExactly(result.diagnostics, sites: [
            ("fragment-key", "shop/other.yaml", 1, 1), ("fragment-key", "shop/other.yaml", 2, 1), ("fragment-key", "shop/other.yaml", 3, 1),
        ])
    }

    @Test func anUnknownFragmentKeySuggestsTheNearest() throws {
        let result = catalog(including: "a.yaml").load([
            "shop/a.yaml": "prodcts: []\n" + Self.fragment(id: "com.example.shop.a", name: "A"),
        ])
        expectExactly(result.diagnostics, sites: [("unknown-key", "shop/a.yaml", 1, 1)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 1, 1, file: "shop/a.yaml", mentions: ["a fragment", "did you mean 'products'?"])
    }

    @Test func aFragmentMayHoldEveryFragmentKey() throws {
        let fragment = """
            include: []
            features: [fragment-feature]
            balances: [tokens]
            groups: {gold: {name: Gold}}
            rules:
              - name: fragment-rule
                when: {type: consumable, state: purchased}
                add: {before: finish, steps: [notify]}

            """ + Self.fragment(id: "com.example.shop.a", name: "A")
        let result = catalog(including: "a.yaml").load(["shop/a.yaml": fragment])
        expectClean(result)
        let catalog = try #require(result.catalog)
        #expect(catalog.features.map(\.value) == ["pro", "extra", "fragment-feature"])
        #expect(catalog.balances.map(\.value) == ["coins", "gems", "tokens"])
        #expect(catalog.groups.map(\.id.value) == ["premium", "gold"])
        #expect(catalog.rules.map(\.name.value) == ["fragment-rule"])
        #expect(catalog.rules.first?.condition.type?.value == .consumable)
    }

    @Test func aFragmentThatIsNotAMapping() throws {
        let result = catalog(including: "a.yaml").load(["shop/a.yaml": "- one\n- two\n"])
        expectExactly(result.diagnostics, sites: [("wrong-kind", "shop/a.yaml", 1, 1)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 1, 1, file: "shop/a.yaml", mentions: ["a fragment is a mapping"])
    }

    @Test func aFragmentWithASyntaxErrorIsReportedAndTheRestLoads() throws {
        let result = catalog(including: "a.yaml").load(["shop/a.yaml": "products: [\n"])
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.rule == "yaml-syntax" && $0.location.file == "shop/a.yaml" })
        #expect(result.files == ["shop/catalog.yaml", "shop/a.yaml"])
        #expect(result.catalog?.products.count == 1)
    }

    /// A fragment that could not be read (missing, not YAML, not a mapping)
    /// is reported once: the names it may have declared are not reported
    /// again as undeclared at every use (issue 15, item 13).
    @Test(arguments: [nil, "features: [pro, extra\n", "- features: [pro, extra]\n"])
    func aFragmentThatCannotBeReadDoesNotMakeItsNamesUndeclared(fragment: String?) throws {
        var fixture = CatalogFixture(.autoRenewable)
        // Its feature `pro` and group `premium` were to come from the fragment.
        fixture.header = ["catalog: test-shop", "app:", "  bundle-id: com.example.shop", "include: [a.yaml]"]
        fixture.path = "shop/catalog.yaml"
        let result = fixture.load(fragment.map { ["shop/a.yaml": $0] } ?? [:])
        #expect(!result.diagnostics.isEmpty)
        #expect(!result.diagnostics.contains { $0.rule == "undeclared-reference" })
    }

    @Test func productsOnlyInFragmentsAreEnough() throws {
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\ninclude: [a.yaml]\n"
        let result = loadCatalog(text, with: ["a.yaml": Self.fragment(id: "com.example.shop.a", name: "A")])
        expectClean(result)
        #expect(result.catalog?.products.count == 1)
    }

    // MARK: Uniqueness across fragments

    @Test func aDuplicateIDInAnotherFragmentIsReportedAtTheLaterWithANoteAtTheFirst() throws {
        let result = catalog(including: "a.yaml, b.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.same", name: "A"),
            "shop/b.yaml": Self.fragment(id: "com.example.shop.same", name: "B"),
        ])
        expectExactly(result.diagnostics, sites: [("duplicate-id", "shop/b.yaml", 2, 9)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "duplicate-id", at: 2, 9, file: "shop/b.yaml",
            mentions: ["'com.example.shop.same' is already used", "its own id"])
        expectNote(diagnostic, at: 2, 9, file: "shop/a.yaml", mentions: ["first used"])
        #expect(result.catalog?.products.filter { $0.id.value == "com.example.shop.same" }.count == 1)
    }

    @Test func aFragmentThatRepeatsTheCatalogsProductID() throws {
        let result = catalog(including: "a.yaml").load([
            "shop/a.yaml": Self.fragment(id: "com.example.shop.item", name: "Another"),
        ])
        expectExactly(result.diagnostics, sites: [("duplicate-id", "shop/a.yaml", 2, 9)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-id", at: 2, 9, file: "shop/a.yaml")
        expectNote(diagnostic, at: 11, 9, file: "shop/catalog.yaml")
    }
}
