import PropertyBased
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct PropertiesTests {
    // MARK: Price

    @Test func priceDescriptionRoundTripsForAnyCents() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...100_000_000)) { cents in
            let price = Price(cents: cents)
            let parsed = Price(parsing: price.description)
            #expect(parsed == price, "\(price.description)")
        }
    }

    @Test func pricesWithOneOrTwoPlacesParseToExactCents() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...999_999), Gen.int(in: 0...99), Gen.bool) { whole, hundredths, oneDigit in
            if oneDigit {
                let tenths = hundredths / 10
                #expect(Price(parsing: "\(whole).\(tenths)")?.cents == whole * 100 + tenths * 10)
            } else {
                let text = "\(whole)." + (hundredths < 10 ? "0" : "") + "\(hundredths)"
                #expect(Price(parsing: text)?.cents == whole * 100 + hundredths)
            }
            #expect(Price(parsing: "\(whole)")?.cents == whole * 100)
            // A third decimal place is never accepted.
            #expect(Price(parsing: "\(whole).\(hundredths / 10)\(hundredths % 10)5") == nil)
        }
    }

    @Test func decodedPricesMatchTheirCentsQuotedOrNot() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...99_999), Gen.bool) { cents, quoted in
            let text = Price(cents: cents).description
            let fixture = CatalogFixture().with("price", quoted ? "\"\(text)\"" : text)
            let result = fixture.load()
            #expect(result.diagnostics.isEmpty, "\(text)")
            #expect(result.catalog?.products.first?.price.value.cents == cents)
        }
    }

    // MARK: ISOPeriod

    @Test func periodDescriptionRoundTrips() async {
        let part = Gen.int(in: 0...10_000)
        await propertyCheck(count: 500, input: Gen.int(in: 0...3), part, part, part, part) { zeroed, years, months, weeks, days in
            // Zero out some parts so that short periods (P3M) are common.
            var period = ISOPeriod(years: years, months: months, weeks: weeks, days: days)
            switch zeroed {
            case 0: period.years = 0; period.weeks = 0; period.days = 0
            case 1: period.months = 0; period.days = 0
            case 2: period.years = 0
            default: break
            }
            guard period.approximateDays > 0 else { return }
            let text = period.description
            guard case .success(let parsed) = ISOPeriod.parse(text) else {
                Issue.record("\(text) did not parse")
                return
            }
            #expect(parsed == period)
            #expect(parsed.description == text)
        }
    }

    @Test func parsedPeriodsPrintAsTheyWereWrittenWhenCanonical() async {
        let units: [Character] = ["Y", "M", "W", "D"]
        await propertyCheck(count: 300, input: Gen.int(in: 1...9_999).array(of: 4), Gen.bool.array(of: 4)) { numbers, present in
            var text = "P"
            for index in 0..<4 where present[index] { text += "\(numbers[index])\(units[index])" }
            guard text != "P" else {
                #expect(ISOPeriod.parse(text) == .failure(.malformed))
                return
            }
            #expect((try? ISOPeriod.parse(text).get())?.description == text)
        }
    }

    @Test func periodsWithATimePartAreRejected() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...100), Gen.int(in: 0...100)) { hours, days in
            let text = days > 0 ? "P\(days)DT\(hours)H" : "PT\(hours)H"
            #expect(ISOPeriod.parse(text) == .failure(.hasTime))
        }
    }

    // MARK: Junk in any field

    /// Characters that matter to YAML, or to the checks, and some that do not.
    static let junkPieces: [String] = [
        ":", ": ", "-", "- ", "[", "]", "{", "}", ",", "#", " #", "&a", "*a", "!", "!!str ", "|", ">", "'", "\"", "%", "@", "`",
        "\\", "/", "..", " ", "\t", "\n", "\n  ", "?", "~", "null", "yes", "no", "true", "0", "1", "-1", "0.99", "9999999999999999999999",
        "P1M", "PT1H", "a", "Z", "é", "日本", "\u{200B}", "\u{FEFF}", "en_US", "<<", "built-in", "server", "x.y", "http://a",
    ]
    static let junk = Gen<String?>.element(of: junkPieces).map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }

    /// The fields junk is put into: every product field and some header values.
    static let targets: [String] = [
        "id", "type", "reference-name", "price", "localizations", "delivery", "persistence", "restore",
        "max-quantity", "family-shareable", "group", "level", "period", "introductory-offer", "duration",
        "header:catalog", "header:bundle-id", "header:features", "header:balances", "header:group-name",
    ]

    static func catalog(with junk: String, in target: String) -> CatalogFixture {
        var fixture = CatalogFixture(.autoRenewable)
        switch target {
        case "header:catalog": fixture.header[0] = "catalog: " + junk
        case "header:bundle-id": fixture.header[2] = "  bundle-id: " + junk
        case "header:features": fixture.header[3] = "features: " + junk
        case "header:balances": fixture.header[4] = "balances: " + junk
        case "header:group-name": fixture.header[7] = "    name: " + junk
        default: fixture = fixture.with(target, junk)
        }
        return fixture
    }

    @Test func junkInAnySingleFieldNeverCrashesAndIsReportedOrValid() async {
        await propertyCheck(count: 400, input: Gen<String?>.element(of: Self.targets).map { $0! }, Self.junk) { target, junk in
            let fixture = Self.catalog(with: junk, in: target)
            let result = fixture.load()
            let products = result.catalog?.products.count ?? 0
            #expect(!result.diagnostics.isEmpty || products == 1, "\(target): \(junk.debugDescription)")
            // With no error, the catalog and its one product decoded.
            if !result.hasErrors {
                #expect(result.catalog != nil && products == 1, "\(target): \(junk.debugDescription)\n\(describe(result.diagnostics))")
            }
            for diagnostic in result.diagnostics {
                #expect(diagnostic.location.file == "catalog.yaml")
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1)
                #expect(!diagnostic.message.isEmpty && !diagnostic.rule.isEmpty)
                #expect(diagnostic.range.end.line >= diagnostic.range.start.line)
            }
        }
    }

    @Test func aValidValueInEveryFieldDecodesCleanly() async {
        // The counterpart of the junk test: the untouched fixture of every type is clean.
        let kinds: [CatalogFixture.Kind] = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]
        await propertyCheck(count: 20, input: Gen<CatalogFixture.Kind?>.element(of: kinds).map { $0! }) { kind in
            let result = CatalogFixture(kind).load()
            #expect(result.diagnostics.isEmpty)
            #expect(result.catalog?.products.count == 1)
        }
    }

    // MARK: Locales

    @Test func wellFormedLocalesAreAccepted() async {
        let language = Gen.lowercaseLetter.string(of: 2...3)
        // A region is two upper-case letters (US) or three digits (419).
        let region = zip(Gen.bool, Gen.uppercaseLetter.string(of: 2), Gen.number.string(of: 3))
            .map { useLetters, letters, digits in useLetters ? letters : digits }.optional
        let script = Gen.uppercaseLetter.string(of: 1).map { $0 + "ant" }.optional
        await propertyCheck(count: 100, input: language, script, region) { language, script, region in
            let locale = ([language] + [script, region].compactMap { $0 }).joined(separator: "-")
            let result = CatalogFixture().with("localizations", "{\"\(locale)\": {title: Item, description: An item}}").load()
            #expect(result.diagnostics.isEmpty, "\(locale): \(describe(result.diagnostics))")
            #expect(result.catalog?.products.first?.localizations.first?.locale.value == locale)
        }
    }
}
