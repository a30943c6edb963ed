@testable import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// A misspelt required key is one mistake: it is reported once, as the
/// unknown key with the right name suggested, not again as a missing key.
@Suite struct TyposTests {
    @Test func aMisspeltRequiredKeyIsReportedOnceAsATypo() throws {
        let fixture = CatalogFixture(.nonConsumable).without("persistence").addingTrailer("    persistance: receipt")
        let result = fixture.load()
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.rule) == ["unknown-key"])
        let typo = try #require(errors.first)
        #expect(typo.message.contains("did you mean 'persistence'?"))
    }

    @Test func aMissingKeyWithAnUnrelatedUnknownKeyIsStillMissing() throws {
        let fixture = CatalogFixture(.nonConsumable).without("persistence").addingTrailer("    colour: red")
        let rules = Set(fixture.load().diagnostics.map(\.rule))
        #expect(rules == ["unknown-key", "missing-key"])
    }

    @Test func aMisspeltNestedKeyIsReportedOnce() throws {
        let fixture = CatalogFixture(.nonConsumable).with("delivery", "{modle: built-in}")
        let errors = fixture.load().diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.rule) == ["unknown-key"])
        #expect(errors.first?.message.contains("did you mean 'model'?") == true)
    }

    /// `{title: Pro, ad free}`: YAML ends the plain value at the comma and reads
    /// `ad free` as a key with no value; the error says so and how to quote it
    /// (issue 26: before, it said only "unknown key", with the list of keys).
    @Test func aCommaInAnUnquotedFlowValueSaysToQuoteIt() throws {
        let fixture = CatalogFixture(.nonConsumable).with("localizations", "{en: {title: Pro, ad free, description: Something}}")
        let errors = fixture.load().diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.rule) == ["unknown-key"])
        let message = try #require(errors.first?.message)
        #expect(message.contains("unknown key 'ad free'") && message.contains("a comma ends a plain value") && message.contains("quote that value"),
                "\(message)")
        // A key written with a colon is an ordinary unknown key, with the keys listed.
        let typed = CatalogFixture(.nonConsumable).with("localizations", "{en: {title: Pro, colour: red, description: Something}}")
        let other = try #require(typed.load().diagnostics.first { $0.rule == "unknown-key" }?.message)
        #expect(!other.contains("a comma ends"), "\(other)")
    }

    /// The same typo in every product: each product's own typo stands for its own missing key,
    /// and only that one (issue 15, item 7: this asked a list of every typo so far, per product).
    @Test func theSameTypoInEveryProductIsReportedOncePerProduct() throws {
        var text = "catalog: shop\napp: {bundle-id: com.example.shop}\nproducts:\n"
        for index in 0..<2_000 {
            text += """
                  - id: com.example.shop.p\(index)
                    type: non-consumable
                    reference-name: Product \(index)
                    prise: "0.99"
                    localizations: {en: {title: Product, description: Something}}
                    delivery: built-in
                    persistence: receipt
                    restore: none

                """
        }
        // One product without the typo is still missing its price.
        text += "  - {id: com.example.shop.last, type: non-consumable, reference-name: Last, localizations: {en: {title: Last, description: Something}}, delivery: built-in, persistence: receipt, restore: none}\n"
        let result = loadCatalog(text)
        #expect(result.diagnostics.filter { $0.rule == "unknown-key" }.count == 2_000)
        let missing = result.diagnostics.filter { $0.rule == "missing-key" }
        #expect(missing.count == 1)
        #expect(missing.first?.location.line == 3 + 2_000 * 8 + 1)
    }
}
