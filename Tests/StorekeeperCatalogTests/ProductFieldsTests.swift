import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct ProductFieldsTests {
    // MARK: Prices

    @Test(arguments: [
        ("\"0.99\"", 99), ("0.99", 99), ("'0.99'", 99), ("0", 0), ("\"0\"", 0), ("4", 400), ("10.5", 1050),
        ("\"1299.99\"", 129_999), ("0.10", 10), ("1000000", 100_000_000),
    ])
    func pricesQuotedOrNotAreReadAsExactCents(written: String, cents: Int) throws {
        let product = try onlyProduct(CatalogFixture().with("price", written).load())
        #expect(product.price.value.cents == cents)
        #expect(product.price.value == Price(cents: cents))
    }

    @Test func plainAndQuotedPricesDecodeToTheSameValue() throws {
        let plain = try onlyProduct(CatalogFixture().with("price", "0.99").load())
        let quoted = try onlyProduct(CatalogFixture().with("price", "\"0.99\"").load())
        #expect(plain.price.value == quoted.price.value)
        #expect(plain.price.value.description == "0.99")
    }

    @Test(arguments: [
        ("0.999", "at most two places"), ("\".5\"", "at most two places"), ("\"1.\"", "at most two places"),
        ("1e3", "at most two places"), ("abc", "at most two places"), ("\"$1\"", "at most two places"),
        ("\"1 000\"", "at most two places"),
    ])
    func malformedPricesAreReportedAtTheValue(written: String, words: String) throws {
        let fixture = CatalogFixture().with("price", written)
        try expectOnlyAtValue(fixture, "price", "invalid-price", mentions: [words, "\"0.99\""])
    }

    @Test(arguments: ["1000001", "1000000.01"])
    func pricesOverOneMillionSaySo(written: String) throws {
        let fixture = CatalogFixture().with("price", written)
        try expectOnlyAtValue(fixture, "price", "invalid-price", mentions: ["at most 1,000,000"])
    }

    @Test func numbersWithLeadingZerosOrTagsAreRejected() throws {
        let zero = CatalogFixture(.consumable).with("max-quantity", "010").load()
        #expect(zero.diagnostics.map(\.rule) == ["wrong-kind"])
        #expect(zero.diagnostics.first?.message.contains("octal") == true)
        let tagged = CatalogFixture(.nonConsumable).with("family-shareable", "!!str true").load()
        #expect(tagged.diagnostics.map(\.rule) == ["wrong-kind"])
    }

    @Test func aNegativePriceSaysZeroOrMore() throws {
        let fixture = CatalogFixture().with("price", "-1")
        try expectOnlyAtValue(fixture, "price", "invalid-price", mentions: ["0 or more", "-1"])
    }

    @Test func aPriceWithAThousandsSeparatorSaysHowToWriteIt() throws {
        let fixture = CatalogFixture().with("price", "\"1,299.99\"")
        try expectOnlyAtValue(fixture, "price", "invalid-price", mentions: ["'1,299.99'", "no separators", "\"1299.99\""])
    }

    @Test func aDiagnosticSpansTheWholeValueQuotesIncluded() throws {
        let fixture = CatalogFixture().with("price", "\"0.999\"")
        let diagnostic = try expectOnlyAtValue(fixture, "price", "invalid-price")
        #expect(diagnostic.range.start.column == 12)
        #expect(diagnostic.range.end.line == fixture.line("price"))
        #expect(diagnostic.range.end.column == 19)
        #expect(diagnostic.range.end.file == "catalog.yaml")
    }

    @Test func anEmptyPriceIsAWrongKind() throws {
        let fixture = CatalogFixture().with("price", "")
        let result = fixture.load()
        // An empty value starts where the value would be: right after `price:`.
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.rule == "wrong-kind")
        #expect(diagnostic.location.line == fixture.line("price"))
        #expect(diagnostic.message.mentions("no value"))
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func aListAsAPriceIsAWrongKind() throws {
        let fixture = CatalogFixture().with("price", "[1]")
        try expectOnlyAtValue(fixture, "price", "wrong-kind", mentions: ["'price'", "single value", "list"])
    }

    // MARK: Product ids

    @Test(arguments: [
        ("com.example/item", "'/' (U+002F)"), ("\"com.example item\"", "a space"), ("com.example.ité", "'é' (U+00E9)"),
        ("\"com.example.\\titem\"", "U+0009"),
    ])
    func productIDsWithOtherCharactersAreInvalidNames(written: String, character: String) throws {
        let fixture = CatalogFixture().with("id", written)
        let diagnostic = try expectOnlyAtValue(fixture, "id", "invalid-name", mentions: [character, "letters, digits, '.', '_' and '-'"])
        #expect(diagnostic.location.line == fixture.productLine)
        #expect(fixture.load().catalog?.products.isEmpty == true)
    }

    @Test func productIDsAreAtMost100Characters() throws {
        let id100 = "com." + String(repeating: "a", count: 96)
        #expect(try onlyProduct(CatalogFixture().with("id", id100).load()).id.value.count == 100)
        let fixture = CatalogFixture().with("id", id100 + "b")
        try expectOnlyAtValue(fixture, "id", "invalid-name", mentions: ["101 characters", "at most 100"])
    }

    @Test func anEmptyProductIDIsAnInvalidName() throws {
        // The spec: "1 to 100 characters".
        let fixture = CatalogFixture().with("id", "\"\"")
        try expectOnlyAtValue(fixture, "id", "invalid-name")
    }

    @Test func productIDsMayUseEveryAllowedCharacter() throws {
        let product = try onlyProduct(CatalogFixture().with("id", "Com.Example_9-x.Item").load())
        #expect(product.id.value == "Com.Example_9-x.Item")
    }

    // MARK: Reference names

    @Test func referenceNamesAreAtMost64Characters() throws {
        let name64 = String(repeating: "n", count: 64)
        #expect(try onlyProduct(CatalogFixture().with("reference-name", name64).load()).referenceName.value == name64)
        let fixture = CatalogFixture().with("reference-name", name64 + "x")
        try expectOnlyAtValue(fixture, "reference-name", "out-of-range", mentions: ["65 characters", "at most 64"])
    }

    @Test func referenceNameLengthCountsCharactersNotBytes() throws {
        let name = String(repeating: "é", count: 64)
        #expect(try onlyProduct(CatalogFixture().with("reference-name", name).load()).referenceName.value == name)
    }

    // MARK: Type

    @Test func aMisspelledTypeSuggestsTheNearest() throws {
        let fixture = CatalogFixture().with("type", "consumible")
        try expectOnlyAtValue(
            fixture, "type", "invalid-value",
            mentions: ["'consumible'", "product type", "did you mean 'consumable'?", "non-renewing-subscription"])
    }

    @Test func aTypeNotCloseToAnyListsThemAll() throws {
        let fixture = CatalogFixture().with("type", "gizmo")
        let diagnostic = try expectOnlyAtValue(fixture, "type", "invalid-value", mentions: ["expected one of: consumable, non-consumable"])
        #expect(!diagnostic.message.mentions("did you mean"))
    }

    // MARK: max-quantity

    @Test func maxQuantityDefaultsToOne() throws {
        let product = try onlyProduct(CatalogFixture(.consumable).load())
        #expect(product.maxQuantity == nil)
        #expect(product.quantityLimit == 1)
    }

    @Test(arguments: [1, 5, 10])
    func maxQuantityFromOneToTen(value: Int) throws {
        let product = try onlyProduct(CatalogFixture(.consumable).with("max-quantity", "\(value)").load())
        #expect(product.quantityLimit == value)
    }

    @Test(arguments: ["0", "11", "100"])
    func maxQuantityOutOfRange(value: String) throws {
        let fixture = CatalogFixture(.consumable).with("max-quantity", value)
        try expectOnlyAtValue(fixture, "max-quantity", "out-of-range", mentions: ["'max-quantity' is \(value)", "from 1 to 10"])
    }

    @Test func aQuotedMaxQuantityIsTextNotANumber() throws {
        let fixture = CatalogFixture(.consumable).with("max-quantity", "\"3\"")
        try expectOnlyAtValue(fixture, "max-quantity", "wrong-kind", mentions: ["in quotes", "write 3 without quotes"])
    }

    @Test(arguments: ["2.5", "-1", "three"])
    func maxQuantityMustBeAWholeNumber(value: String) throws {
        let fixture = CatalogFixture(.consumable).with("max-quantity", value)
        try expectOnlyAtValue(fixture, "max-quantity", "wrong-kind", mentions: ["whole number from 1 to 10", "'\(value)'"])
    }

    /// A number past the range is out of range however many digits it has:
    /// said as scenarios say it, since catalogs and scenarios share their
    /// readers (it was "must be a whole number", a wrong-kind, past 18 digits).
    @Test(arguments: [
        ("1000000000000000000", "'max-quantity' is 1000000000000000000; it must be from 1 to 10"),
        ("99999999999999999999999", "'max-quantity' '99999999999999999999999' is too large; it must be from 1 to 10"),
    ])
    func aHugeMaxQuantityIsOutOfRange(value: String, message: String) throws {
        let fixture = CatalogFixture(.consumable).with("max-quantity", value)
        try expectOnlyAtValue(fixture, "max-quantity", "out-of-range", mentions: [message])
    }

    // MARK: family-shareable and boolean spellings

    @Test(arguments: [("true", true), ("false", false), ("True", true), ("FALSE", false)])
    func familyShareableIsABoolean(written: String, value: Bool) throws {
        let product = try onlyProduct(CatalogFixture().with("family-shareable", written).load())
        #expect(product.familyShareable?.value == value)
        #expect(product.isFamilyShareable == value)
    }

    @Test func familyShareableDefaultsToFalse() throws {
        let product = try onlyProduct(CatalogFixture().load())
        #expect(product.familyShareable == nil)
        #expect(!product.isFamilyShareable)
    }

    @Test(arguments: [("yes", "true"), ("Yes", "true"), ("on", "true"), ("ON", "true"), ("y", "true"),
                      ("no", "false"), ("off", "false"), ("Off", "false"), ("n", "false")])
    func yesNoOnOffAskForTrueOrFalse(written: String, meant: String) throws {
        let fixture = CatalogFixture().with("family-shareable", written)
        let diagnostic = try expectOnlyAtValue(fixture, "family-shareable", "boolean-spelling", mentions: ["'\(written)'", "write \(meant)"])
        #expect(diagnostic.message.mentions("YAML 1.2"))
    }

    @Test func aQuotedTrueIsTextNotABoolean() throws {
        let fixture = CatalogFixture().with("family-shareable", "\"true\"")
        try expectOnlyAtValue(fixture, "family-shareable", "wrong-kind", mentions: ["in quotes", "write true without quotes"])
    }

    @Test func otherValuesAreNotBooleans() throws {
        let fixture = CatalogFixture().with("family-shareable", "1")
        try expectOnlyAtValue(fixture, "family-shareable", "wrong-kind", mentions: ["true or false", "'1'"])
    }

    // MARK: Unknown and missing keys

    @Test func aMisspelledKeySuggestsTheNearestAndIsNotAlsoMissing() throws {
        let fixture = CatalogFixture().without("price").with("prise", "\"0.99\"")
        let result = fixture.load()
        // One mistake, one error: the typo, naming the key it should be.
        expectExactly(result.diagnostics, [
            ("unknown-key", fixture.line("prise"), fixture.keyColumn),
        ])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("prise"), 5, mentions: ["'prise'", "a product", "did you mean 'price'?"])
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func anUnknownKeyFarFromAnyListsTheKnownKeys() throws {
        let fixture = CatalogFixture().with("colour", "red")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", fixture.line("colour"), 5)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("colour"), 5, mentions: ["expected one of: id, type"])
        #expect(!diagnostic.message.mentions("did you mean"))
    }

    /// An over-long unknown key is quoted cut and gets no suggestion, as in storekeeper.yml.
    @Test func anOverLongUnknownKeyIsQuotedCut() throws {
        let key = "price" + String(repeating: "x", count: 200)
        let fixture = CatalogFixture().with(key, "1")
        let result = fixture.load()
        let shown = "price" + String(repeating: "x", count: 35) + "…"
        let diagnostic = try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line(key), 5,
                                              mentions: ["unknown key '\(shown)' in a product; expected one of: id, type"])
        #expect(!diagnostic.message.mentions("did you mean"))
    }

    @Test func aProductWithAnErrorIsLeftOutOfTheModel() throws {
        // `Catalog.products`: "Only products that decoded without errors are listed".
        let result = CatalogFixture().with("colour", "red").load()
        #expect(result.hasErrors)
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func everyMissingRequiredKeyIsReportedAtTheProductMapping() throws {
        // A product with only an id: no defaults, so every required key is missing.
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\nproducts:\n  - id: com.example.shop.item\n"
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, Array(repeating: ("missing-key", 10, 5), count: 7))
        let messages = result.diagnostics.map(\.message)
        for key in ["type", "reference-name", "price", "localizations", "delivery", "persistence", "restore"] {
            #expect(messages.contains { $0.mentions("missing '\(key)'") }, "no missing-key for \(key)")
        }
        #expect(messages.contains { $0.mentions("under `defaults`") })
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func aMissingIDIsReportedAtTheProduct() throws {
        let fixture = CatalogFixture().without("id")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, 5)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.productLine, 5, mentions: ["this product is missing 'id'", "id: com.example.app.product"])
    }

    @Test func aProductThatIsNotAMappingIsAWrongKind() throws {
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\nproducts:\n  - com.example.shop.item\n"
        let result = loadCatalog(text)
        expectExactly(result.diagnostics, [("wrong-kind", 10, 5)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 10, 5, mentions: ["a product", "mapping", "single value"])
    }

    @Test func productsThatIsNotAListIsAWrongKind() throws {
        let text = CatalogFixture.baseHeader.joined(separator: "\n") + "\nproducts: {id: x}\n"
        let result = loadCatalog(text)
        // Not also "no products": the products written are reported once, as not a list.
        expectExactly(result.diagnostics, [("wrong-kind", 9, 11)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: 9, 11, mentions: ["'products'", "a list", "a mapping"])
    }

    // MARK: Several problems in one product

    @Test func everyProblemOfAProductIsReportedInOneRun() throws {
        let fixture = CatalogFixture(.consumable)
            .with("id", "com.example/item")
            .with("type", "consumable")
            .with("price", "-2")
            .with("max-quantity", "12")
            .with("family-shareable", "yes")
            .with("persistence", "app-stat")
            .with("localizations", "{en_US: {title: Item, description: An item}}")
            .with("delivery", "{model: built-in, grants: {coin: 10}}")
        let result = fixture.load()
        expectExactly(result.diagnostics, [
            ("invalid-name", fixture.line("id"), fixture.valueColumn("id")),
            ("invalid-price", fixture.line("price"), fixture.valueColumn("price")),
            ("invalid-locale", fixture.line("localizations"), fixture.valueColumn("localizations") + 1),
            ("not-applicable", fixture.line("family-shareable"), fixture.keyColumn),
            ("boolean-spelling", fixture.line("family-shareable"), fixture.valueColumn("family-shareable")),
            ("out-of-range", fixture.line("max-quantity"), fixture.valueColumn("max-quantity")),
            ("invalid-value", fixture.line("persistence"), fixture.valueColumn("persistence")),
            ("undeclared-reference", fixture.line("delivery"), position(of: "coin:", in: fixture.text).column),
        ])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("persistence"), fixture.valueColumn("persistence"), mentions: ["did you mean 'app-state'?"])
        try expectDiagnostic(result.diagnostics, "undeclared-reference", at: fixture.line("delivery"), position(of: "coin:", in: fixture.text).column, mentions: ["did you mean 'coins'?"])
        #expect(result.catalog?.products.isEmpty == true)
    }
}

/// YAML anchors, aliases and merge keys are how authors share values between products.
@Suite struct SharedValuesTests {
    static let text = """
        catalog: shared
        app: {bundle-id: com.example.shared}
        features: [pro]
        products:
          - &base
            id: com.example.shared.one
            type: non-consumable
            reference-name: One
            price: "0.99"
            localizations: &loc
              en-US: {title: Shared, description: Shared text}
            delivery: {model: built-in, unlocks: [pro]}
            persistence: receipt
            restore: receipt-refresh
          - <<: *base
            id: com.example.shared.two
            reference-name: Two
          - <<: *base
            id: com.example.shared.three
            reference-name: Three
            price: "1.99"
            localizations: *loc

        """

    @Test func mergeKeysAndAliasesDecode() throws {
        let result = loadCatalog(Self.text)
        expectClean(result)
        let catalog = try #require(result.catalog)
        #expect(catalog.products.map(\.id.value) == ["com.example.shared.one", "com.example.shared.two", "com.example.shared.three"])
        let two = try #require(catalog.product(id: "com.example.shared.two"))
        #expect(two.referenceName.value == "Two")
        #expect(two.price.value.cents == 99)
        #expect(two.localizations.first?.title.value == "Shared")
        #expect(two.delivery.unlocks.map(\.value) == ["pro"])
        #expect(catalog.product(id: "com.example.shared.three")?.price.value.cents == 199)
    }

    /// Each note of `diagnostic` as `line:column message`.
    static func notes(of diagnostic: Diagnostic?) -> [String] {
        diagnostic?.notes.map { "\($0.location.line):\($0.location.column) \($0.message)" } ?? []
    }

    /// Where the `occurrence`th `<<` of `text` is, as a note gives it.
    static func merge(_ occurrence: Int, in text: String) -> String {
        let place = position(of: "<<", in: text, occurrence: occurrence)
        return "\(place.line):\(place.column)"
    }

    @Test func aBadValueSharedByAMergeIsReportedOnceAtItsPlaceWithANoteAtEachMerge() throws {
        // The merged mapping is read by three products; its bad value is in
        // one place, and each `<<` that brought it names the product it went to.
        let text = Self.text.replacingFirst("persistence: receipt", with: "persistence: reciept")
        let result = loadCatalog(text)
        let place = position(of: "reciept", in: text)
        #expect(Set(result.diagnostics.map { DiagnosticSite(rule: $0.rule, file: $0.location.file, line: $0.location.line, column: $0.location.column) })
            == [DiagnosticSite(rule: "invalid-value", file: "catalog.yaml", line: place.line, column: place.column)])
        let normalized = Diagnostic.normalized(result.diagnostics)
        #expect(normalized.count == 1)
        #expect(Self.notes(of: normalized.first) == [
            "\(Self.merge(1, in: text)) merged into product 'com.example.shared.two' here",
            "\(Self.merge(2, in: text)) merged into product 'com.example.shared.three' here",
        ])
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func aMergedValueIsNotedOnlyForTheProductsItReached() throws {
        // The third product writes its own price, so the first one's is merged into the second only.
        let text = Self.text.replacingFirst("    price: \"0.99\"", with: "    price: \"0.999\"")
        let normalized = Diagnostic.normalized(loadCatalog(text).diagnostics)
        let price = position(of: "\"0.999\"", in: text)
        let problem = try expectDiagnostic(normalized, "invalid-price", at: price.line, price.column)
        #expect(Self.notes(of: problem) == ["\(Self.merge(1, in: text)) merged into product 'com.example.shared.two' here"])
        #expect(normalized.count == 1, "\(describe(normalized))")
    }

    @Test func aMergedUnknownKeyIsNotedForEachProductItReached() throws {
        let text = Self.text.replacingFirst("    restore: receipt-refresh\n", with: "    restore: receipt-refresh\n    pric: \"1\"\n")
        let result = loadCatalog(text)
        let normalized = Diagnostic.normalized(result.diagnostics)
        let key = position(of: "pric:", in: text)
        let unknown = try expectDiagnostic(normalized, "unknown-key", at: key.line, key.column)
        #expect(Self.notes(of: unknown) == [
            "\(Self.merge(1, in: text)) merged into product 'com.example.shared.two' here",
            "\(Self.merge(2, in: text)) merged into product 'com.example.shared.three' here",
        ])
        #expect(normalized.count == 1, "\(describe(normalized))")
    }

    @Test func aProblemInAProductsOwnKeysHasNoMergeNote() throws {
        let text = Self.text.replacingFirst("    price: \"1.99\"", with: "    price: \"1.999\"")
        let normalized = Diagnostic.normalized(loadCatalog(text).diagnostics)
        let price = position(of: "\"1.999\"", in: text)
        let problem = try expectDiagnostic(normalized, "invalid-price", at: price.line, price.column)
        #expect(problem.notes.isEmpty)
        #expect(normalized.count == 1, "\(describe(normalized))")
    }

    @Test func aProductWhoseIdIsMergedIsNotNamedByTheOtherProductsId() throws {
        // The second product writes no id of its own: the first one's is merged in
        // (and is a duplicate), so the note cannot name it by that.
        let text = Self.text
            .replacingFirst("    id: com.example.shared.two\n", with: "")
            .replacingFirst("persistence: receipt", with: "persistence: reciept")
        let normalized = Diagnostic.normalized(loadCatalog(text).diagnostics)
        let place = position(of: "reciept", in: text)
        let problem = try expectDiagnostic(normalized, "invalid-value", at: place.line, place.column)
        #expect(Self.notes(of: problem) == [
            "\(Self.merge(1, in: text)) merged into this product here",
            "\(Self.merge(2, in: text)) merged into product 'com.example.shared.three' here",
        ])
    }

    @Test func aProblemFoundOnceDefaultsApplyIsNotedToo() throws {
        // A consumable's grants, merged into a non-consumable: reported while
        // the product is completed with the catalog's defaults, not while it is read.
        let text = """
            catalog: shared
            app: {bundle-id: com.example.shared}
            balances: [coins]
            products:
              - &pack
                id: com.example.shared.coins
                type: consumable
                reference-name: Coins
                price: "0.99"
                localizations: {en-US: {title: Coins, description: A bag of coins}}
                delivery: {model: built-in, grants: {coins: 100}}
                persistence: app-state
                restore: none
              - <<: *pack
                id: com.example.shared.forever
                type: non-consumable
                reference-name: Forever
                persistence: receipt
                restore: receipt-refresh

            """
        let normalized = Diagnostic.normalized(loadCatalog(text).diagnostics)
        let grant = position(of: "coins: 100", in: text)
        let problem = try expectDiagnostic(normalized, "not-applicable", at: grant.line, grant.column, mentions: ["'grants' applies only to consumables"])
        #expect(Self.notes(of: problem) == ["\(Self.merge(1, in: text)) merged into product 'com.example.shared.forever' here"])
    }
}
