import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct DeliveryTests {
    // MARK: Short and long forms

    @Test(arguments: [("built-in", DeliveryModel.builtIn), ("server", .server)])
    func theShortFormNamesTheModel(written: String, model: DeliveryModel) throws {
        let fixture = CatalogFixture().with("delivery", written)
        let product = try onlyProduct(fixture.load())
        #expect(product.delivery.model.value == model)
        #expect(product.delivery.unlocks.isEmpty && product.delivery.grants.isEmpty && product.delivery.content == nil)
        #expect(product.delivery.location.line == fixture.line("delivery"))
        #expect(product.delivery.location.column == fixture.valueColumn("delivery"))
        #expect(!product.delivery.isInherited)
    }

    @Test func theLongFormHoldsModelUnlocksAndContent() throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, unlocks: [pro, extra], content: {source: server, path: packs/one.zip, size: 1.5 GB, storage: cache}}")
        let product = try onlyProduct(fixture.load())
        #expect(product.delivery.model.value == .server)
        #expect(product.delivery.unlocks.map(\.value) == ["pro", "extra"])
        let content = try #require(product.delivery.content)
        #expect(content.source.value == .server)
        #expect(content.path?.value == "packs/one.zip")
        #expect(content.size?.value.bytes == 1_500_000_000)
        #expect(content.storage?.value == .cache)
        #expect(content.location.column == position(of: "{source", in: fixture.text).column)
    }

    @Test func theLongFormInBlockStyle() throws {
        let text = CatalogFixture().without("delivery").text + """
                delivery:
                  model: built-in
                  unlocks:
                    - pro
                  content:
                    source: apple-hosted
                    size: 800KB
                    storage: documents

            """
        let product = try onlyProduct(loadCatalog(text))
        #expect(product.delivery.model.value == .builtIn)
        #expect(product.delivery.model.location.line == 18)
        #expect(product.delivery.unlocks.first?.location.line == 20)
        #expect(product.delivery.content?.size?.value == ByteSize(bytes: 800_000))
        #expect(product.delivery.content?.storage?.value == .documents)
    }

    @Test func aMisspelledShortFormSuggestsTheModel() throws {
        let fixture = CatalogFixture().with("delivery", "builtin")
        try expectOnlyAtValue(fixture, "delivery", "invalid-value", mentions: ["'builtin'", "delivery model", "did you mean 'built-in'?"])
    }

    @Test func aMisspelledModelInTheLongForm() throws {
        let fixture = CatalogFixture().with("delivery", "{model: sever}")
        let result = fixture.load()
        let column = position(of: "sever", in: fixture.text).column
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("delivery"), column, mentions: ["did you mean 'server'?"])
    }

    @Test func theLongFormNeedsAModel() throws {
        let fixture = CatalogFixture().with("delivery", "{unlocks: [pro]}")
        try expectOnlyAtValue(fixture, "delivery", "missing-key", mentions: ["'delivery' is missing 'model'", "model: built-in"])
    }

    @Test func anUnknownDeliveryKeySuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, unlock: [pro]}")
        let result = fixture.load()
        let column = position(of: "unlock:", in: fixture.text).column
        expectExactly(result.diagnostics, [("unknown-key", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("delivery"), column, mentions: ["'unlock'", "did you mean 'unlocks'?"])
    }

    @Test func aListIsNotADelivery() throws {
        let fixture = CatalogFixture().with("delivery", "[built-in]")
        try expectOnlyAtValue(fixture, "delivery", "wrong-kind", mentions: ["'delivery'", "a list"])
    }

    @Test func unlocksMustBeAList() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, unlocks: pro}")
        let result = fixture.load()
        let column = position(of: "pro}", in: fixture.text).column
        expectExactly(result.diagnostics, [("wrong-kind", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: fixture.line("delivery"), column, mentions: ["'unlocks' should be a list"])
    }

    @Test func anUnlockThatIsNotANameIsAWrongKind() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, unlocks: [pro, [extra]]}")
        let result = fixture.load()
        let column = position(of: "[extra]", in: fixture.text).column
        expectExactly(result.diagnostics, [("wrong-kind", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: fixture.line("delivery"), column, mentions: ["an entry of 'unlocks'", "single value"])
    }

    // MARK: Grants

    @Test(arguments: ["0", "-5", "1000000001"])
    func grantAmountsArePositive(amount: String) throws {
        let fixture = CatalogFixture(.consumable).with("delivery", "{model: built-in, grants: {coins: \(amount)}}")
        let result = fixture.load()
        let column = position(of: amount + "}", in: fixture.text).column
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.location.line == fixture.line("delivery") && diagnostic.location.column == column)
        #expect(diagnostic.message.mentions("the amount of 'coins'"))
        #expect(diagnostic.rule == (amount == "-5" ? "wrong-kind" : "out-of-range"))
    }

    @Test func emptyGrantsAreAMissingKey() throws {
        let fixture = CatalogFixture(.consumable).with("delivery", "{model: built-in, grants: {}}")
        let result = fixture.load()
        let column = position(of: "{}", in: fixture.text).column
        expectExactly(result.diagnostics, [("missing-key", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.line("delivery"), column, mentions: ["'grants' is empty", "{coins: 100}"])
    }

    @Test func grantsMustBeAMapping() throws {
        let fixture = CatalogFixture(.consumable).with("delivery", "{model: built-in, grants: [coins]}")
        let result = fixture.load()
        let column = position(of: "[coins]", in: fixture.text).column
        expectExactly(result.diagnostics, [("wrong-kind", fixture.line("delivery"), column)])
    }

    // MARK: Content

    @Test func bundleContentNeedsAPath() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, content: {source: bundle}}")
        let result = fixture.load()
        let column = position(of: "{source", in: fixture.text).column
        expectExactly(result.diagnostics, [("missing-key", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.line("delivery"), column, mentions: ["bundle content is missing 'path'"])
    }

    @Test func storageDoesNotApplyToBundleContent() throws {
        let fixture = CatalogFixture().with("delivery", "{model: built-in, content: {source: bundle, path: a.plist, storage: cache}}")
        let result = fixture.load()
        let column = position(of: "storage:", in: fixture.text).column
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: fixture.line("delivery"), column, mentions: ["'storage'", "bundle content", "remove it"])
    }

    @Test func bundleContentWithStorageAndNoPathReportsBoth() throws {
        // Every problem in one run: the misplaced storage and the missing path.
        let fixture = CatalogFixture().with("delivery", "{model: built-in, content: {source: bundle, storage: cache}}")
        let result = fixture.load()
        expectExactly(result.diagnostics, [
            ("not-applicable", fixture.line("delivery"), position(of: "storage:", in: fixture.text).column),
            ("missing-key", fixture.line("delivery"), position(of: "{source", in: fixture.text).column),
        ])
    }

    @Test func contentNeedsASource() throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {path: a/b}}")
        let result = fixture.load()
        let column = position(of: "{path", in: fixture.text).column
        expectExactly(result.diagnostics, [("missing-key", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.line("delivery"), column, mentions: ["'content' is missing 'source'"])
    }

    @Test func aMisspelledSourceSuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: apple}}")
        let column = position(of: "apple}", in: fixture.text).column
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("delivery"), column, mentions: ["did you mean 'apple-hosted'?"])
    }

    @Test(arguments: [ContentSource.bundle, .appleHosted])
    func builtInContentFromBundleOrAppleIsFine(source: ContentSource) throws {
        let content = source == .bundle ? "{source: bundle, path: a.plist}" : "{source: apple-hosted, size: 10MB}"
        let product = try onlyProduct(CatalogFixture().with("delivery", "{model: built-in, content: \(content)}").load())
        #expect(product.delivery.content?.source.value == source)
    }

    @Test(arguments: ["2GB", "2000MB", "1.5GB", "1 GiB"])
    func appleHostedContentUpTo2GB(size: String) throws {
        let product = try onlyProduct(
            CatalogFixture().with("delivery", "{model: server, content: {source: apple-hosted, size: \(size)}}").load())
        #expect(product.delivery.content?.size?.value.bytes ?? .max <= 2_000_000_000)
    }

    @Test(arguments: ["3GB", "2.1GB", "2GiB", "2000001KB"])
    func appleHostedContentOver2GB(size: String) throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: apple-hosted, size: \(size)}}")
        let result = fixture.load()
        let column = position(of: size + "}", in: fixture.text).column
        expectExactly(result.diagnostics, [("out-of-range", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "out-of-range", at: fixture.line("delivery"), column, mentions: ["at most 2 GB"])
    }

    @Test func serverContentMayBeLarger() throws {
        let product = try onlyProduct(
            CatalogFixture().with("delivery", "{model: server, content: {source: server, size: 5GB}}").load())
        #expect(product.delivery.content?.size?.value.bytes == 5_000_000_000)
    }

    @Test(arguments: ["lots", "45", "45 mb", "MB", "-1MB"])
    func unreadableSizes(size: String) throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: server, size: \(size)}}")
        let result = fixture.load()
        let column = position(of: size + "}", in: fixture.text).column
        expectExactly(result.diagnostics, [("invalid-size", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-size", at: fixture.line("delivery"), column, mentions: ["not a size", "45MB"])
    }

    @Test func aZeroSizeIsOutOfRange() throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: server, size: 0MB}}")
        let result = fixture.load()
        let column = position(of: "0MB", in: fixture.text).column
        expectExactly(result.diagnostics, [("out-of-range", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "out-of-range", at: fixture.line("delivery"), column, mentions: ["more than 0"])
    }

    @Test(arguments: ["0.5B", "0.0001KB"])
    func aSizeUnderOneByteSaysSo(size: String) throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: server, size: \(size)}}")
        let result = fixture.load()
        let column = position(of: size + "}", in: fixture.text).column
        expectExactly(result.diagnostics, [("out-of-range", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "out-of-range", at: fixture.line("delivery"), column, mentions: ["less than one byte", "1B"])
    }

    @Test func aMisspelledStorageSuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("delivery", "{model: server, content: {source: server, storage: documens}}")
        let result = fixture.load()
        let column = position(of: "documens", in: fixture.text).column
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("delivery"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("delivery"), column, mentions: ["did you mean 'documents'?"])
    }

    // MARK: Content paths

    /// A product whose bundle content has `path` (written in a block so that
    /// any text can be quoted), and the path value's line and column.
    func contentPath(_ path: String) -> (CatalogFixture, line: Int, column: Int) {
        let fixture = CatalogFixture().without("delivery").addingTrailer(
            "    delivery:",
            "      model: built-in",
            "      content:",
            "        source: bundle",
            "        path: \(path)")
        return (fixture, fixture.trailerLine + 4, 15)
    }

    @Test(arguments: [
        ("../x", "leaves its root"), ("'/abs'", "absolute"), ("a/../../b", "leaves its root"), ("'C:\\x'", "absolute"),
        ("'C:/x'", "absolute"), ("'~/x'", "absolute"), ("'..'", "leaves its root"), ("'./..//x'", "leaves its root"),
        ("https://example.com/x", "URL"), ("'a\\b'", "'/'"), ("'.'", "names no file"), ("''", "names no file"),
    ])
    func contentPathsThatLeaveTheirRoot(path: String, words: String) throws {
        let (fixture, line, column) = contentPath(path)
        let result = fixture.load()
        expectExactly(result.diagnostics, [("content-path", line, column)])
        try expectDiagnostic(result.diagnostics, "content-path", at: line, column, mentions: ["the content path", words])
    }

    @Test(arguments: ["Levels/forest.plist", "a/../b.plist", "./Vehicles/car.plist", "deep/er/still/x", "x..y/z"])
    func contentPathsInsideTheirRoot(path: String) throws {
        let (fixture, _, _) = contentPath(path)
        let product = try onlyProduct(fixture.load())
        #expect(product.delivery.content?.path?.value == path)
    }
}
