import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

/// Inputs at the edges: sizes too large to count, a fragment's own
/// defaults, a misspelt `catalog` key, follow-on errors, quoted and empty values.
@Suite struct EdgeCasesTests {
    @Test func aSizeTooLargeToCountIsAnErrorNotACrash() throws {
        let fixture = CatalogFixture(.nonConsumable)
            .with("delivery", "{model: server, content: {source: apple-hosted, size: 10000000000GB}}")
        let result = fixture.load()
        #expect(result.diagnostics.map(\.rule) == ["invalid-size"])
        #expect(ByteSize(parsing: "9223372036854775807GB") == nil)
        #expect(ByteSize(parsing: "1.5GB")?.bytes == 1_500_000_000)
    }

    @Test func sizesReadAsAppStoreConnectShowsThem() {
        #expect(ByteSize(bytes: 45_000_000).description == "45 MB")
        #expect(ByteSize(bytes: 2_040_109_465).description == "2 GB")
        #expect(ByteSize(bytes: 2_140_109_465).description == "2.1 GB")
        #expect(ByteSize(bytes: 999).description == "999 B")
    }

    @Test func pricesAreAtMostOneMillion() {
        #expect(Price(parsing: "1000000")?.cents == 100_000_000)
        #expect(Price(parsing: "1000000.99") == nil)
        #expect(Price(parsing: "999999.99")?.cents == 99_999_999)
    }

    @Test func aFragmentsOwnDefaultsAreAnErrorAndApplyToNothing() throws {
        let catalog = """
            catalog: shop
            app: {bundle-id: com.example.shop}
            features: [pro]
            defaults: {persistence: receipt, restore: receipt-refresh}
            include: [more.yaml]
            products: []

            """
        let fragment = """
            defaults: {persistence: app-state, restore: none}
            products:
              - id: com.example.a
                type: non-consumable
                reference-name: A
                price: "1.99"
                localizations: {en-US: {title: Item A, description: An item}}
                delivery: {model: built-in, unlocks: [pro]}

            """
        let result = loadCatalog(["catalog.yaml": catalog, "more.yaml": fragment])
        #expect(result.diagnostics.map(\.rule) == ["fragment-key"])
        let product = try #require(result.catalog?.products.first)
        // The catalog's defaults, not the fragment's.
        #expect(product.persistence.strategy.value == .receipt)
        #expect(product.restore.policy.value == .receiptRefresh)
    }

    @Test func aMisspeltCatalogKeyIsReportedNotSkipped() throws {
        let broken = "catalg: demo\napp: {bundle-id: com.example.demo}\n"
        let reader = InMemorySourceReader(["shop/demo.yaml": broken, "shop/notes.yaml": "title: Notes\n"])
        let report = try CatalogValidator(loader: CatalogLoader(reader: reader)).validate(["shop"])
        let typo = try #require(report.diagnostics.first)
        #expect(typo.rule == "unknown-key")
        #expect(typo.message.contains("did you mean 'catalog'?"))
        #expect(report.filesChecked == 1)
    }

    @Test func anUnresolvedAliasIsOneErrorNotTwo() throws {
        let result = CatalogFixture(.nonConsumable).with("price", "*nowhere").load()
        #expect(result.diagnostics.map(\.rule) == ["yaml-alias"])
    }

    @Test func aQuotedFormatIsAWrongKind() throws {
        let text = CatalogFixture(.nonConsumable).addingHeader("format: \"1\"").text
        let result = loadCatalog(text)
        #expect(result.diagnostics.map(\.rule) == ["wrong-kind"])
        #expect(result.diagnostics.first?.message.contains("without quotes") == true)
    }

    @Test func theStepAnAddRuleAnchorsOnIsCheckedLikeItsSteps() throws {
        let text = CatalogFixture(.nonConsumable).addingTrailer(
            "rules:", "  - {name: extra, when: {state: purchased}, add: {after: '9-persist', steps: [notify]}}").text
        let result = loadCatalog(text)
        #expect(result.diagnostics.map(\.rule) == ["invalid-name"])
    }

    @Test(arguments: ["title", "description"])
    func emptyDisplayTextIsAnError(field: String) throws {
        let localization = field == "title" ? "{en-US: {title: '', description: An item}}" : "{en-US: {title: Item, description: ''}}"
        let result = CatalogFixture(.nonConsumable).with("localizations", localization).load()
        #expect(result.diagnostics.map(\.rule) == ["wrong-kind"])
        #expect(result.diagnostics.first?.message.contains("is empty") == true)
    }
}
