import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct LocalizationsTests {
    func localized(_ text: String) -> CatalogFixture {
        CatalogFixture().with("localizations", text)
    }

    @Test(arguments: ["en-US", "fr", "pt-BR", "zh-Hans", "zh-Hans-CN", "es-419", "yue", "sr-Latn"])
    func validLocales(locale: String) throws {
        let product = try onlyProduct(localized("{\(locale): {title: Item, description: An item}}").load())
        #expect(product.localizations.map(\.locale.value) == [locale])
    }

    @Test func severalLocalesKeepTheirOrderAndPlaces() throws {
        let text = CatalogFixture().without("localizations").text + """
                localizations:
                  en-US: {title: Item, description: An item}
                  de: {title: Ding, description: Ein Ding}
                  ja: {title: アイテム, description: ひとつのアイテム}

            """
        let product = try onlyProduct(loadCatalog(text))
        #expect(product.localizations.map(\.locale.value) == ["en-US", "de", "ja"])
        #expect(product.localizations[2].title.value == "アイテム")
        #expect(product.localizations[2].description.value == "ひとつのアイテム")
        // Columns count characters: `      ja: {title: アイテム, description: ` is 37 characters.
        #expect(product.localizations[2].description.location.line == 20)
        #expect(product.localizations[2].description.location.column == 38)
        #expect(product.localizations[1].locale.location.line == 19 && product.localizations[1].locale.location.column == 7)
    }

    @Test func norwegianIsALocaleNotABoolean() throws {
        // `no` is Norwegian; as a key it is text, whatever YAML 1.1 thought of it.
        let product = try onlyProduct(localized("{no: {title: Ting, description: En ting}, nb-NO: {title: Ting, description: En ting}}").load())
        #expect(product.localizations.map(\.locale.value) == ["no", "nb-NO"])
    }

    @Test func anUnderscoreSuggestsTheHyphenatedLocale() throws {
        let fixture = localized("{en_US: {title: Item, description: An item}}")
        let column = fixture.valueColumn("localizations") + 1
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-locale", fixture.line("localizations"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-locale", at: fixture.line("localizations"), column, mentions: ["'en_US'", "'_'", "en-US"])
    }

    @Test(arguments: ["EN", "english", "e", "en-us", "en-USA", "zh-hans", "en-US-x", "EN-us", "1en"])
    func notLocales(locale: String) throws {
        let fixture = localized("{\(locale): {title: Item, description: An item}}")
        let column = fixture.valueColumn("localizations") + 1
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-locale", fixture.line("localizations"), column)])
        try expectDiagnostic(
            result.diagnostics, "invalid-locale", at: fixture.line("localizations"), column,
            mentions: ["'\(locale)' is not a locale", "en-US, fr, pt-BR or zh-Hans"])
    }

    @Test func atLeastOneLocalization() throws {
        let fixture = localized("{}")
        try expectOnlyAtValue(fixture, "localizations", "missing-key", mentions: ["'localizations' is empty", "en-US: {title:"])
    }

    @Test func localizationsMustBeAMapping() throws {
        let fixture = localized("[en-US]")
        try expectOnlyAtValue(fixture, "localizations", "wrong-kind", mentions: ["'localizations' should be a mapping, not a list"])
    }

    @Test func aLocalizationMustBeAMapping() throws {
        let fixture = localized("{en-US: Item}")
        let column = position(of: "Item}", in: fixture.text).column
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", fixture.line("localizations"), column)])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: fixture.line("localizations"), column, mentions: ["the 'en-US' localization should be a mapping"])
    }

    @Test func titleAndDescriptionAreRequiredAtTheLocalesMapping() throws {
        let fixture = localized("{en-US: {title: Item}, fr: {description: Un objet}}")
        let result = fixture.load()
        let line = fixture.line("localizations")
        let english = position(of: "{title", in: fixture.text).column
        let french = position(of: "{description", in: fixture.text).column
        expectExactly(result.diagnostics, [("missing-key", line, english), ("missing-key", line, french)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: line, english, mentions: ["the 'en-US' localization is missing 'description'"])
        try expectDiagnostic(result.diagnostics, "missing-key", at: line, french, mentions: ["the 'fr' localization is missing 'title'"])
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func aMisspelledLocalizationKeySuggestsTheNearest() throws {
        let fixture = localized("{en-US: {titel: Item, description: An item}}")
        let column = position(of: "titel", in: fixture.text).column
        let result = fixture.load()
        // The typo is the whole mistake: no second error for the missing 'title'.
        expectExactly(result.diagnostics, [
            ("unknown-key", fixture.line("localizations"), column),
        ])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("localizations"), column, mentions: ["did you mean 'title'?"])
    }

    @Test func anEmptyTitleHasNoValue() throws {
        let fixture = localized("{en-US: {title: , description: An item}}")
        let result = fixture.load()
        #expect(result.diagnostics.map(\.rule) == ["wrong-kind"])
        #expect(result.diagnostics.first?.message.mentions("'title' has no value") == true)
    }

    // MARK: What the App Store shows

    @Test(arguments: ["Ab", String(repeating: "t", count: 30), "アイ"])
    func titlesOf2To30CharactersAreFine(title: String) throws {
        let product = try onlyProduct(localized("{en-US: {title: \"\(title)\", description: An item}}").load())
        #expect(product.localizations.first?.title.value == title)
    }

    // MARK: Group localizations

    @Test func groupsHaveLocalizedNames() throws {
        // Line 9 continues the `premium` group of the fixture's header.
        let fixture = CatalogFixture(.autoRenewable).addingHeader("    localizations: {en-US: {name: Premium}, fr: {name: Premium FR}}")
        let result = fixture.load()
        expectClean(result)
        let group = try #require(result.catalog?.groups.first)
        #expect(group.localizations.map(\.locale.value) == ["en-US", "fr"])
        #expect(group.localizations.map(\.name.value) == ["Premium", "Premium FR"])
    }

    @Test func groupLocalizationsAreChecked() throws {
        let fixture = CatalogFixture().addingHeader("    localizations: {en_GB: {name: Premium}, fr: {titel: Premium}}")
        let result = fixture.load()
        let line = 9
        expectExactly(result.diagnostics, [
            ("invalid-locale", line, position(of: "en_GB", in: fixture.text).column),
            ("unknown-key", line, position(of: "titel", in: fixture.text).column),
            ("missing-key", line, position(of: "{titel", in: fixture.text).column),
        ])
        try expectDiagnostic(result.diagnostics, "invalid-locale", at: line, position(of: "en_GB", in: fixture.text).column, mentions: ["en-GB"])
        try expectDiagnostic(result.diagnostics, "missing-key", at: line, position(of: "{titel", in: fixture.text).column, mentions: ["the 'fr' localization is missing 'name'"])
    }
}
