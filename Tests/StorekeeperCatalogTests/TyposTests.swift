import StorekeeperCatalog
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
}
