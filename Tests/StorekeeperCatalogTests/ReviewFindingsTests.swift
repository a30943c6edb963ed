@testable import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Behaviour that a hostile or careless file must get, found in review:
/// bounded diagnostics, values from broken aliases, misspelt defaults, and
/// which files a directory search takes for catalogs.
@Suite struct ReviewFindingsTests {
    @Test func diagnosticsAreCappedAndTheRestCounted() throws {
        let names = Array(repeating: "same", count: 12_000).joined(separator: ", ")
        let text = CatalogFixture(.nonConsumable).text.replacingOccurrences(of: "features: [pro, extra]", with: "features: [pro, extra, \(names)]")
        let result = loadCatalog(text)
        #expect(result.diagnostics.count == DiagnosticCap.limit + 1)
        let last = try #require(result.diagnostics.last)
        #expect(last.rule == "too-many-problems")
        #expect(last.message.contains("1999 more problems"))
    }

    /// Products are decoded while the file is parsed, into a list of their
    /// own: what that list left out was dropped when it joined the catalog's,
    /// so 12,000 products with one typo each reported 10,000 errors and no
    /// count of the other 2,000.
    @Test func streamedProductsLeftOutAreCounted() throws {
        var text = "catalog: shop\napp: {bundle-id: com.example.shop}\nproducts:\n"
        for index in 0..<12_000 {
            text += """
                  - id: com.example.shop.p\(index)
                    type: consumable
                    reference-name: P\(index)
                    prise: "0.99"
                    localizations: {en-US: {title: P, description: D}}
                    delivery: built-in
                    persistence: app-state
                    restore: none

                """
        }
        let result = loadCatalog(text)
        #expect(result.diagnostics.count == DiagnosticCap.limit + 1)
        #expect(result.diagnostics.dropLast().allSatisfy { $0.rule == "unknown-key" })
        let last = try #require(result.diagnostics.last)
        #expect(last == Diagnostic(
            .error, rule: "too-many-problems",
            "2000 more problems (2000 errors) were found and not listed (at most 10000 are listed for a catalog); fix these and run again",
            at: SourceLocation(file: "catalog.yaml", line: 1, column: 1)))
    }

    /// Past the cap, only warnings: the count is a warning too, so a run
    /// that lists only warnings does not fail for those it left out (the
    /// count was always an error, so 10,001 rules matching no product failed
    /// validation).
    @Test func warningsLeftOutAreCountedAsAWarning() throws {
        var fixture = CatalogFixture()
        fixture.trailer = ["rules:"] + (0...DiagnosticCap.limit).flatMap { index in
            ["  - name: r\(index)", "    when: {product: \"com.none.\(index).*\"}", "    do: [finish]"]
        }
        let result = fixture.load()
        #expect(result.diagnostics.count == DiagnosticCap.limit + 1)
        let last = try #require(result.diagnostics.last)
        #expect(last.rule == "too-many-problems")
        #expect(last.severity == .warning)
        #expect(last.message.hasPrefix("1 more problems (1 warning) were found"))
        #expect(!result.hasErrors)
    }

    @Test func repeatedKeysAreCappedInTheYAMLLayer() throws {
        let text = "a: 1\n" + String(repeating: "a: 2\n", count: 10_500)
        let result = YAMLParser.parse(Array(text.utf8), file: "t.yaml")
        #expect(result.diagnostics.count == 10_001)
        #expect(result.diagnostics.last?.rule == "too-many-problems")
    }

    /// A file's YAML problems are capped in the YAML layer, which counts
    /// those it left out in a last diagnostic; joining the catalog's cap,
    /// that count was itself left out (counted there as one problem), so the
    /// report said "1 more" for the 500 the file did not list.
    @Test func aFilesCountOfYAMLProblemsSurvivesTheCatalogsCap() throws {
        let text = CatalogFixture().with("price", "free").text
            .replacingFirst("    type: ", with: String(repeating: "    reference-name: Again\n", count: DiagnosticCap.limit + 500) + "    type: ")
        let result = loadCatalog(text)
        #expect(result.diagnostics.filter { $0.rule == "duplicate-key" }.count == DiagnosticCap.limit)
        let counts = result.diagnostics.filter { $0.rule == "too-many-problems" }.map(\.message)
        #expect(counts == [
            "500 more problems (500 errors) were found in this file and not listed; fix these and run again",
            "1 more problems (1 error) were found and not listed (at most 10000 are listed for a catalog); fix these and run again",
        ])
    }

    @Test func aProductWithAValueFromABrokenAliasIsLeftOut() throws {
        let result = CatalogFixture(.nonConsumable).with("delivery", "{model: built-in, unlocks: [*nowhere]}").load()
        #expect(result.diagnostics.map(\.rule) == ["yaml-alias"])
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func aMisspeltDefaultIsReportedOnceNotAtEveryProduct() throws {
        let text = CatalogFixture(.nonConsumable).without("delivery").addingHeader("defaults: {delivry: built-in}").text
        let result = loadCatalog(text)
        #expect(result.diagnostics.map(\.rule) == ["unknown-key"])
    }

    @Test func onlyOneTypingMistakeFromCatalogCountsAsACatalogInADirectory() throws {
        let reader = InMemorySourceReader([
            "shop/typo.yaml": "catalg: demo\napp: {bundle-id: com.example.demo}\n",
            "shop/other.yaml": "catalogue: someone else's format\n",
            "shop/product-catalog.yaml": "product-catalog: [a, b]\n",
        ])
        let report = try CatalogValidator(loader: CatalogLoader(reader: reader)).validate(["shop"])
        #expect(report.filesChecked == 1)
        #expect(Set(report.diagnostics.map(\.location.file)) == ["shop/typo.yaml"])
    }

    @Test func aBrokenCatalogWithAQuotedKeyIsStillFound() throws {
        let reader = InMemorySourceReader(["shop/broken.yaml": "\"catalog\": demo\napp: [unclosed\n"])
        let report = try CatalogValidator(loader: CatalogLoader(reader: reader)).validate(["shop"])
        #expect(report.diagnostics.first?.rule == "yaml-syntax")
    }

    @Test func fileSizeLimitsStayBelowWhatPositionsCanAddress() {
        #expect(YAMLLimits(maxFileSize: Int.max).maxFileSize == YAMLLimits.largestFileSize)
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
