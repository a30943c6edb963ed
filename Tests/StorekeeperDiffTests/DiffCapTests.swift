import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import Testing

/// A diff lists at most 10,000 findings, as validation does (issue 15, item 11):
/// 12,000 removed products listed 11,999 errors and no count.
@Suite struct DiffCapTests {
    /// A catalog with `count` products numbered from `first`, at `price`.
    static func catalog(_ range: Range<Int>, price: String) -> String {
        var text = """
            catalog: shop
            app: {bundle-id: com.example.shop}
            defaults: {delivery: built-in, persistence: receipt, restore: receipt-refresh}
            products:

            """
        for index in range {
            text += """
                  - {id: com.example.shop.p\(index), type: non-consumable, reference-name: P\(index), price: "\(price)", \
                localizations: {en-US: {title: P\(index), description: Product}}}

                """
        }
        return text
    }

    /// 10,000 price notes come first in reading order, 5 removals (errors) after
    /// them: the errors are listed, and the count says 5 notes were left out.
    @Test func findingsPastTheLimitAreCountedAndErrorsAreNeverAmongThem() throws {
        let limit = DiagnosticCap.limit
        let (old, new) = try DiffFixtures.load(old: Self.catalog(0..<limit + 5, price: "0.99"), new: Self.catalog(0..<limit, price: "1.99"))
        for diagnostics in [CatalogDiff().compare(old: old, new: new), CatalogDiff().compare(old: [old], new: [new])] {
            #expect(diagnostics.count == limit + 1)
            #expect(diagnostics.filter { $0.rule == DiffCheck.productRemoved.id }.count == 5)
            let count = try #require(diagnostics.last)
            #expect(count.rule == "too-many-problems")
            #expect(count.severity == .note)
            #expect(count.message.hasPrefix("5 more problems (5 notes) were found by the diff and not listed"))
            #expect(count.location == new.name.location)
        }
    }

    /// Only errors past the limit: the count is an error, so the run fails as it would with all listed.
    @Test func aCountOfErrorsIsAnError() throws {
        let limit = DiagnosticCap.limit
        let (old, new) = try DiffFixtures.load(old: Self.catalog(0..<limit + 3, price: "0.99"), new: Self.catalog(limit + 3..<limit + 4, price: "0.99"))
        let diagnostics = CatalogDiff().compare(old: old, new: new)
        #expect(diagnostics.count == limit + 1)
        #expect(diagnostics.last?.rule == "too-many-problems")
        #expect(diagnostics.last?.severity == .error)
        #expect(diagnostics.last?.message.hasPrefix("3 more problems (3 errors)") == true)
    }
}
