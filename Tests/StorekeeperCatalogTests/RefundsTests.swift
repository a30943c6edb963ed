import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// The catalog's `refunds: {spent-balance: owe | forgive}` (docs/format.md#refunds):
/// decoded with its place, defaulting to `owe`, and every mistake reported
/// where it is written, with what would be right.
@Suite struct RefundsTests {
    /// The fixture with `refunds:` at line 9 and these lines after it (from line 10).
    func refunds(_ lines: String...) -> CatalogFixture {
        var fixture = CatalogFixture().addingHeader("refunds:")
        fixture.header += lines
        return fixture
    }

    @Test func aCatalogThatDoesNotSayOwes() throws {
        let catalog = try #require(CatalogFixture().load().catalog)
        #expect(catalog.refunds == nil)
        #expect(catalog.refundedSpendPolicy == .owe)
        #expect(RefundedSpendPolicy.default == .owe)
    }

    @Test(arguments: [("owe", RefundedSpendPolicy.owe), ("forgive", .forgive), ("\"forgive\"", .forgive)])
    func eachValueIsReadWithItsPlace(written: String, policy: RefundedSpendPolicy) throws {
        let result = refunds("  spent-balance: \(written)").load()
        expectClean(result)
        let catalog = try #require(result.catalog)
        let refunds = try #require(catalog.refunds)
        #expect(refunds.spentBalance?.value == policy)
        #expect(refunds.spentBalance?.location == SourceLocation(file: "catalog.yaml", line: 10, column: 18))
        #expect(refunds.location == SourceLocation(file: "catalog.yaml", line: 10, column: 3))
        #expect(catalog.refundedSpendPolicy == policy)
    }

    @Test func anEmptyMappingMeansTheDefault() throws {
        let result = CatalogFixture().addingHeader("refunds: {}").load()
        expectClean(result)
        let catalog = try #require(result.catalog)
        #expect(catalog.refunds?.spentBalance == nil)
        #expect(catalog.refundedSpendPolicy == .owe)
    }

    @Test(arguments: [("forgve", "did you mean 'forgive'?"), ("Owe", "did you mean 'owe'?"), ("owed", "did you mean 'owe'?")])
    func aMisspeltValueSuggestsTheNearest(written: String, suggestion: String) throws {
        let result = refunds("  spent-balance: \(written)").load()
        expectExactly(result.diagnostics, [("invalid-value", 10, 18)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 10, 18,
                             mentions: ["'\(written)' is not a valid 'spent-balance' refund policy", suggestion, "expected one of: owe, forgive"])
        // Refused, not read as the default: a catalog with an error is never compiled.
        #expect(result.catalog?.refunds == nil)
        #expect(result.hasErrors)
    }

    @Test func anUnrelatedValueListsTheChoices() throws {
        let result = refunds("  spent-balance: keep-everything").load()
        expectExactly(result.diagnostics, [("invalid-value", 10, 18)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "invalid-value", at: 10, 18, mentions: ["expected one of: owe, forgive"])
        #expect(!diagnostic.message.contains("did you mean"))
    }

    @Test func aMisspeltKeyInsideRefundsSuggestsSpentBalance() throws {
        let result = refunds("  spent-balanse: forgive").load()
        expectExactly(result.diagnostics, [("unknown-key", 10, 3)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 10, 3, mentions: ["unknown key 'spent-balanse' in 'refunds'", "did you mean 'spent-balance'?"])
    }

    @Test func anUnknownKeyInsideRefundsListsTheKnownOnes() throws {
        let result = refunds("  spent-balance: forgive", "  rounding: nearest").load()
        expectExactly(result.diagnostics, [("unknown-key", 11, 3)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 11, 3, mentions: ["unknown key 'rounding' in 'refunds'", "expected one of: spent-balance"])
        // The key it knows is still read.
        #expect(result.catalog?.refundedSpendPolicy == .forgive)
    }

    @Test func aMisspeltTopLevelKeySuggestsRefunds() throws {
        let result = CatalogFixture().addingHeader("refund: {spent-balance: forgive}").load()
        expectExactly(result.diagnostics, [("unknown-key", 9, 1)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 9, 1, mentions: ["did you mean 'refunds'?"])
        #expect(result.catalog?.refundedSpendPolicy == .owe)
    }

    @Test(arguments: [
        ("refunds: forgive", 9, 10, "'refunds' should be a mapping, not a single value"),
        ("refunds: [owe]", 9, 10, "'refunds' should be a mapping, not a list"),
        ("refunds:", 9, 9, "'refunds' has no value; it should be a mapping"),
    ])
    func refundsIsAMapping(line: String, atLine: Int, column: Int, words: String) throws {
        let result = CatalogFixture().addingHeader(line).load()
        expectExactly(result.diagnostics, [("wrong-kind", atLine, column)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: atLine, column, mentions: [words])
        #expect(result.catalog?.refunds == nil)
    }

    @Test(arguments: [
        ("  spent-balance: [owe]", "should be a single value such as owe, not a list"),
        ("  spent-balance: {policy: owe}", "should be a single value such as owe, not a mapping"),
        ("  spent-balance: ~", "has no value; write one such as owe"),
        ("  spent-balance: true", "'true' is not a valid 'spent-balance' refund policy"),
    ])
    func spentBalanceIsOneWord(line: String, words: String) throws {
        let result = refunds(line).load()
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(["wrong-kind", "invalid-value"].contains(diagnostic.rule))
        #expect(diagnostic.location.line == 10 && diagnostic.location.column == 18)
        #expect(diagnostic.message.contains(words), "\(diagnostic.message)")
        #expect(result.catalog?.refunds == nil)
    }

    @Test func aFragmentCannotSetRefunds() throws {
        let fragment = """
            refunds: {spent-balance: forgive}
            products:
              - id: com.example.shop.extra
                type: non-consumable
                reference-name: Extra
                price: "0.99"
                localizations: {en-US: {title: Extra, description: Something more}}
                delivery: built-in
                persistence: receipt
                restore: receipt-refresh

            """
        let result = CatalogFixture().addingHeader("include: [extra.yaml]").load(["extra.yaml": fragment])
        expectExactly(result.diagnostics, sites: [("fragment-key", "extra.yaml", 1, 1)])
        try expectDiagnostic(result.diagnostics, "fragment-key", at: 1, 1, file: "extra.yaml",
                             mentions: ["'refunds' belongs in the catalog file", "products, groups, features, balances, rules, include"])
        // A fragment's word does not change the catalog's policy.
        #expect(result.catalog?.refundedSpendPolicy == .owe)
        #expect(result.catalog?.product(id: "com.example.shop.extra") != nil)
    }
}
