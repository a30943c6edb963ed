import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML
import Testing

@Suite struct TopLevelTests {
    /// The fixture with header line `index` (0-based) replaced.
    func header(_ index: Int, _ line: String) -> CatalogFixture {
        var fixture = CatalogFixture()
        fixture.header[index] = line
        return fixture
    }

    // MARK: catalog

    @Test func theCatalogNameIsKept() throws {
        let result = CatalogFixture().load()
        let catalog = try #require(result.catalog)
        #expect(catalog.name.value == "test-shop")
        #expect(catalog.name.location == SourceLocation(file: "catalog.yaml", line: 1, column: 10))
        #expect(catalog.format == 1)
        #expect(catalog.files == ["catalog.yaml"])
        #expect(result.files == ["catalog.yaml"])
    }

    @Test(arguments: [("Test-Shop", "'T' (U+0054)"), ("test_shop", "'_' (U+005F)"), ("\"test shop\"", "a space"), ("tëst", "'ë'")])
    func catalogNamesUseLowerCaseLettersDigitsAndHyphens(name: String, character: String) throws {
        let fixture = header(0, "catalog: \(name)")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-name", 1, 10)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: 1, 10, mentions: ["the catalog name", character, "lower-case letters, digits and '-'"])
        #expect(result.catalog == nil)
    }

    @Test func anEmptyCatalogNameIsAnInvalidName() throws {
        let result = header(0, "catalog: \"\"").load()
        expectExactly(result.diagnostics, [("invalid-name", 1, 10)])
    }

    @Test func aMissingCatalogNameIsReportedAtTheRootMapping() throws {
        var fixture = CatalogFixture()
        fixture.header[0] = "format: 1"
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", 1, 1)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 1, 1, mentions: ["missing 'catalog'", "catalog: rocket-racer"])
        #expect(result.catalog == nil)
    }

    // MARK: format

    @Test func formatOneIsRead() throws {
        let result = CatalogFixture().addingHeader("format: 1").load()
        expectClean(result)
        #expect(result.catalog?.format == 1)
    }

    @Test(arguments: ["2", "0", "1.0", "\"2\"", "v1"])
    func otherFormatsAreUnsupportedAndTheSupportedOneIsNamed(format: String) throws {
        let result = CatalogFixture().addingHeader("format: \(format)").load()
        expectExactly(result.diagnostics, [("unsupported-format", 9, 9)])
        try expectDiagnostic(result.diagnostics, "unsupported-format", at: 9, 9, mentions: ["format '\(format.filter { $0 != "\"" })' is not supported", "reads format 1"])
    }

    @Test func aListAsAFormatIsAWrongKind() throws {
        let result = CatalogFixture().addingHeader("format: [1]").load()
        expectExactly(result.diagnostics, [("wrong-kind", 9, 9)])
    }

    // MARK: app

    @Test func theAppDefaultsToIOS() throws {
        let catalog = try #require(CatalogFixture().load().catalog)
        #expect(catalog.app.bundleID.value == "com.example.shop")
        #expect(catalog.app.platforms.map(\.value) == [.ios])
        #expect(catalog.app.minimumOS == nil)
        #expect(catalog.app.location.line == 3 && catalog.app.location.column == 3)
    }

    @Test func platformsAndMinimumOS() throws {
        var edited = CatalogFixture()
        edited.header.insert(contentsOf: ["  platforms: [ios, macos, tvos, watchos, visionos]", "  minimum-os: \"17.2\""], at: 3)
        let result = edited.load()
        expectClean(result)
        let app = try #require(result.catalog?.app)
        #expect(app.platforms.map(\.value) == Platform.allCases)
        #expect(app.platforms[1].location.line == 4 && app.platforms[1].location.column == 20)
        #expect(app.minimumOS?.value == OSVersion(major: 17, minor: 2))
        #expect(app.minimumOS?.value.description == "17.2")
    }

    /// The fixture with lines added to `app` (after `bundle-id`, from line 4).
    func app(_ lines: String...) -> CatalogFixture {
        var fixture = CatalogFixture()
        fixture.header.insert(contentsOf: lines, at: 3)
        return fixture
    }

    @Test func anUnquotedMinimumOSIsAWarningAndStillRead() throws {
        let result = app("  minimum-os: 15.0").load()
        expectExactly(result.diagnostics, [("unquoted-version", 4, 15)])
        try expectDiagnostic(result.diagnostics, "unquoted-version", at: 4, 15, severity: .warning, mentions: ["\"15.0\"", "quotes"])
        #expect(result.catalog?.app.minimumOS?.value == OSVersion(major: 15, minor: 0))
        #expect(!result.hasErrors)
    }

    @Test func anUnquotedVersionWarnsAbout15_10() throws {
        let result = app("  minimum-os: 15.10").load()
        try expectDiagnostic(result.diagnostics, "unquoted-version", at: 4, 15, severity: .warning, mentions: ["\"15.10\"", "15.1"])
        #expect(result.catalog?.app.minimumOS?.value == OSVersion(major: 15, minor: 10))
    }

    @Test(arguments: ["\"15\"", "15", "\"15.0.1\"", "\"fifteen\"", "\"0.1\"", "\"100.0\"", "\"15.x\""])
    func versionsThatAreNotMajorDotMinor(version: String) throws {
        let result = app("  minimum-os: \(version)").load()
        expectExactly(result.diagnostics, [("invalid-value", 4, 15)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 4, 15, mentions: ["not an OS version", "major.minor", "\"15.0\""])
    }

    @Test func aMisspelledPlatformSuggestsTheNearest() throws {
        let result = app("  platforms: [ios, macOS, andriod]").load()
        // Case differs only: suggested as the lower-case name.
        expectExactly(result.diagnostics, [("invalid-value", 4, 20), ("invalid-value", 4, 27)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 4, 20, mentions: ["'macOS' is not a valid platform", "did you mean 'macos'?"])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 4, 27, mentions: ["'andriod'", "ios, macos, tvos, watchos, visionos"])
    }

    @Test func aPlatformListedTwice() throws {
        let result = app("  platforms: [ios, macos, ios]").load()
        expectExactly(result.diagnostics, [("duplicate-name", 4, 27)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-name", at: 4, 27, mentions: ["'ios' is listed twice"])
        expectNote(diagnostic, at: 4, 15, mentions: ["first listed"])
    }

    @Test func anEmptyPlatformList() throws {
        let result = app("  platforms: []").load()
        expectExactly(result.diagnostics, [("missing-key", 4, 14)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 4, 14, mentions: ["'platforms' is empty", "ios, macos"])
    }

    @Test func platformsMustBeAList() throws {
        let result = app("  platforms: ios").load()
        expectExactly(result.diagnostics, [("wrong-kind", 4, 14)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 4, 14, mentions: ["'platforms' should be a list, not a single value"])
    }

    @Test(arguments: [("shop", "reverse-DNS"), ("com..shop", "reverse-DNS"), ("com.example.", "reverse-DNS"), (".com.example", "reverse-DNS"),
                      ("com.example.shop!", "'!'"), ("com.example_shop.app", "'_'")])
    func bundleIDsAreReverseDNS(id: String, words: String) throws {
        let result = header(2, "  bundle-id: \(id)").load()
        expectExactly(result.diagnostics, [("invalid-name", 3, 14)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: 3, 14, mentions: ["the bundle id '\(id)'", words])
    }

    @Test func aMissingBundleIDIsReportedAtTheAppMapping() throws {
        let result = header(2, "  platforms: [ios]").load()
        expectExactly(result.diagnostics, [("missing-key", 3, 3)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 3, 3, mentions: ["'app' is missing 'bundle-id'", "com.example.app"])
        #expect(result.catalog == nil)
    }

    @Test func aMissingAppIsReportedAtTheRootMapping() throws {
        var fixture = CatalogFixture()
        fixture.header[1] = "format: 1"
        fixture.header[2] = "# no app"
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", 1, 1)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 1, 1, mentions: ["missing 'app'", "bundle-id"])
        #expect(result.catalog == nil)
    }

    @Test func anUnknownAppKey() throws {
        let result = app("  minimum-ios: \"15.0\"").load()
        expectExactly(result.diagnostics, [("unknown-key", 4, 3)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 4, 3, mentions: ["'app'", "did you mean 'minimum-os'?"])
    }

    // MARK: server

    func server(_ url: String, identity: String? = nil) -> CatalogFixture {
        var fixture = CatalogFixture().addingHeader("server:", "  url: \(url)")
        if let identity { fixture = fixture.addingHeader("  identity: \(identity)") }
        return fixture
    }

    @Test(arguments: ["https://store.example.com", "https://store.example.com:8443/api/v1", "http://localhost:8080",
                      "http://localhost", "http://127.0.0.1:3000/x", "http://[::1]:8080", "HTTPS://Store.Example.com"])
    func acceptedServerURLs(url: String) throws {
        let result = server(url).load()
        expectClean(result)
        let server = try #require(result.catalog?.server)
        #expect(server.url.value == url)
        #expect(server.identity == nil)
        #expect(server.effectiveIdentity == .account)
        #expect(server.location.line == 10 && server.location.column == 3)
    }

    @Test(arguments: ["http://example.com", "http://store.example.com:8080/x", "http://localhost.example.com", "http://10.0.0.1"])
    func plainHTTPIsInsecure(url: String) throws {
        let result = server(url).load()
        expectExactly(result.diagnostics, [("insecure-url", 10, 8)])
        try expectDiagnostic(result.diagnostics, "insecure-url", at: 10, 8, mentions: ["http", "use https", "localhost"])
        #expect(result.catalog?.server == nil)
    }

    @Test(arguments: ["ftp://example.com", "ws://example.com"])
    func otherSchemesAreInsecure(url: String) throws {
        let result = server(url).load()
        let scheme = String(url.prefix { $0 != ":" })
        expectExactly(result.diagnostics, [("insecure-url", 10, 8)])
        try expectDiagnostic(result.diagnostics, "insecure-url", at: 10, 8, mentions: ["'\(scheme)'", "use https"])
    }

    @Test(arguments: ["https://", "https:///path", "https://:443", "http://@"])
    func aURLWithoutAHost(url: String) throws {
        let result = server(url).load()
        expectExactly(result.diagnostics, [("insecure-url", 10, 8)])
        try expectDiagnostic(result.diagnostics, "insecure-url", at: 10, 8, mentions: ["names no host", "https://store.example.com"])
    }

    @Test(arguments: ["store.example.com", "/api"])
    func notAURL(url: String) throws {
        let result = server(url).load()
        expectExactly(result.diagnostics, [("insecure-url", 10, 8)])
        try expectDiagnostic(result.diagnostics, "insecure-url", at: 10, 8, mentions: ["is not a URL", "https://store.example.com"])
    }

    @Test(arguments: [("account", ServerIdentity.account), ("device", .device)])
    func serverIdentities(written: String, identity: ServerIdentity) throws {
        let result = server("https://store.example.com", identity: written).load()
        expectClean(result)
        #expect(result.catalog?.server?.identity?.value == identity)
        #expect(result.catalog?.server?.effectiveIdentity == identity)
    }

    @Test func aMisspelledIdentitySuggestsTheNearest() throws {
        let result = server("https://store.example.com", identity: "devise").load()
        expectExactly(result.diagnostics, [("invalid-value", 11, 13)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 11, 13, mentions: ["server identity", "did you mean 'device'?"])
    }

    @Test func aServerNeedsAURL() throws {
        let result = CatalogFixture().addingHeader("server:", "  identity: account").load()
        expectExactly(result.diagnostics, [("missing-key", 10, 3)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 10, 3, mentions: ["'server' is missing 'url'", "https://store.example.com"])
    }

    @Test func anUnknownServerKey() throws {
        let result = server("https://store.example.com").addingHeader("  urls: x").load()
        expectExactly(result.diagnostics, [("unknown-key", 11, 3)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 11, 3, mentions: ["did you mean 'url'?"])
    }

    @Test func aServerUsedByAProductAndDeclaredIsFine() throws {
        let result = server("https://store.example.com").with("delivery", "server").with("persistence", "server").with("restore", "server").load()
        expectClean(result)
    }

    // MARK: features, balances, groups

    @Test func featuresAndBalancesAreLists() throws {
        var fixture = CatalogFixture()
        fixture.header[3] = "features: pro"
        fixture.header[4] = "balances: {coins: 1}"
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", 4, 11), ("wrong-kind", 5, 11)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 4, 11, mentions: ["'features' should be a list, not a single value"])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 5, 11, mentions: ["'balances' should be a list, not a mapping"])
    }

    @Test(arguments: [("\"1st\"", "starts with '1'"), ("\"pro tracks\"", "a space"), ("\"pro/tracks\"", "'/'")])
    func featureNames(name: String, words: String) throws {
        let result = header(3, "features: [\(name)]").load()
        expectExactly(result.diagnostics, [("invalid-name", 4, 12)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: 4, 12, mentions: ["the feature name", words])
    }

    @Test func featureNamesAreAtMost64Characters() throws {
        let long = "f" + String(repeating: "x", count: 64)
        let result = header(3, "features: [\(long)]").load()
        expectExactly(result.diagnostics, [("invalid-name", 4, 12)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: 4, 12, mentions: ["65 characters", "at most 64"])
    }

    @Test func groupsAreAMappingOfIDsToNames() throws {
        var fixture = CatalogFixture()
        fixture.header = Array(fixture.header[0..<5]) + ["groups: [premium]"]
        let listed = fixture.load()
        expectExactly(listed.diagnostics, [("wrong-kind", 6, 9)])
        try expectDiagnostic(listed.diagnostics, "wrong-kind", at: 6, 9, mentions: ["'groups' should be a mapping, not a list"])
    }

    @Test func groupIDsAreSymbols() throws {
        let result = header(6, "  Pro Group:").load()
        expectExactly(result.diagnostics, [("invalid-name", 7, 3)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: 7, 3, mentions: ["the group name 'Pro Group'", "a space"])
    }

    @Test func aGroupNeedsAName() throws {
        let result = header(7, "    title: Premium").load()
        expectExactly(result.diagnostics, [("unknown-key", 8, 5), ("missing-key", 8, 5)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: 8, 5, mentions: ["the group 'premium' is missing 'name'"])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 8, 5, mentions: ["a group", "expected one of: name, localizations"])
    }

    // MARK: Unknown keys, root, products

    @Test func aMisspelledTopLevelKeySuggestsTheNearest() throws {
        let result = CatalogFixture().addingHeader("feature: [more]").load()
        expectExactly(result.diagnostics, [("unknown-key", 9, 1)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 9, 1, mentions: ["'feature'", "a catalog", "did you mean 'features'?"])
    }

    @Test func noProductsAtAll() throws {
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\nproducts: []\n"
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [("no-products", 1, 10)])
        try expectDiagnostic(result.diagnostics, "no-products", at: 1, 10, mentions: ["no products", "`products`", "fragment"])
    }

    @Test func noProductsKeyAtAll() throws {
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\n"
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [("no-products", 1, 10)])
    }

    @Test func aMisspelledProductsKeyAndThereforeNoProducts() throws {
        let text = CatalogFixture().text.replacingFirst("products:", with: "prodcts:")
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [("unknown-key", 9, 1), ("no-products", 1, 10)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: 9, 1, mentions: ["did you mean 'products'?"])
    }

    @Test(arguments: ["- catalog: shop\n- app: x\n", "just text\n", "[a, b]\n"])
    func aRootThatIsNotAMapping(text: String) throws {
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [("wrong-kind", 1, 1)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 1, 1, mentions: ["a catalog file is a mapping", "`products:`"])
        #expect(result.catalog == nil)
    }

    @Test func anEmptyFileIsReported() throws {
        let result = loadCatalog("")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.rule == YAMLRuleID.documentCount)
        #expect(result.diagnostics.first?.location.line == 1)
        #expect(result.catalog == nil)
    }

    @Test func aYAMLSyntaxErrorIsReportedWithItsFile() throws {
        let result = loadCatalog("catalog: x\napp: [\n", at: "shop/catalog.yaml")
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.rule == YAMLRuleID.syntax && $0.location.file == "shop/catalog.yaml" })
        #expect(result.catalog == nil)
        #expect(result.files == ["shop/catalog.yaml"])
    }

    @Test func aMissingCatalogFile() throws {
        let result = loadCatalog(["other.yaml": "x: 1"], at: "catalog.yaml")
        expectExactly(result.diagnostics, [("include", 1, 1)])
        try expectDiagnostic(result.diagnostics, "include", at: 1, 1, mentions: ["cannot read the catalog"])
        #expect(result.catalog == nil)
    }

    @Test func aFileOverTheSizeLimit() throws {
        let loader = CatalogLoader(reader: InMemorySourceReader(["catalog.yaml": CatalogFixture().text]), limits: YAMLLimits(maxFileSize: 100))
        let result = loader.load("catalog.yaml")
        expectExactly(result.diagnostics, [(YAMLRuleID.limit, 1, 1)])
        try expectDiagnostic(result.diagnostics, YAMLRuleID.limit, at: 1, 1, mentions: ["over the limit", "include"])
    }

    @Test func aDuplicateTopLevelKeyIsAYAMLError() throws {
        let result = CatalogFixture().addingHeader("balances: [more]").load()
        expectExactly(result.diagnostics, [(YAMLRuleID.duplicateKey, 9, 1)])
        // The first `balances` is the one read.
        #expect(result.catalog?.balances.map(\.value) == ["coins", "gems"])
    }

    // MARK: Everything at once

    @Test func everyProblemInTheFileIsReportedInOneRun() throws {
        let text = """
            catalog: Test-Shop
            format: 2
            app:
              bundle-id: shop
              platforms: [ios, andriod]
              minimum-os: 15.0
            server:
              url: http://example.com
            features: [pro]
            balances: [coins]
            groups: {premium: {name: Premium}}
            colour: blue
            products:
              - id: com.example.a
                type: non-consumable
                reference-name: A
                price: "0.999"
                localizations: {en_US: {title: A product, description: Something}}
                delivery: {model: built-in, unlocks: [pro-tracks]}
                persistence: reciept
                restore: receipt-refresh
                max-quantity: 3
              - id: com.example.b
                type: auto-renewable-subscription
                reference-name: A
                price: "1.99"
                group: premum
                period: P1M
                family-shareable: yes
                localizations: {en-US: {title: B product, description: Something}}
                delivery: server
                persistence: receipt
                restore: receipt-refresh
            rules:
              - name: quiet
                when: {state: purchsed}
                do: []
            """
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [
            ("invalid-name", 1, 10),
            ("unsupported-format", 2, 9),
            ("invalid-name", 4, 14),
            ("invalid-value", 5, 20),
            ("unquoted-version", 6, 15),
            ("insecure-url", 8, 8),
            ("unknown-key", 12, 1),
            ("invalid-price", 17, 12),
            ("invalid-locale", 18, 21),
            ("undeclared-reference", 19, 43),
            ("invalid-value", 20, 18),
            ("not-applicable", 22, 5),
            ("duplicate-name", 25, 21),
            ("undeclared-reference", 27, 12),
            ("boolean-spelling", 29, 23),
            ("invalid-value", 36, 19),
            ("missing-key", 37, 9),
        ])
        try expectDiagnostic(result.diagnostics, "undeclared-reference", at: 19, 43, mentions: ["feature 'pro-tracks'", "did you mean 'pro'?"])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: 36, 19, mentions: ["did you mean 'purchased'?"])
        #expect(result.diagnostics.filter { $0.severity == .warning }.map(\.rule) == ["unquoted-version"])
    }
}
