import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct SubscriptionsTests {
    // MARK: Auto-renewable: group, level, period

    @Test func anAutoRenewableSubscriptionHasAGroupALevelAndAPeriod() throws {
        let fixture = CatalogFixture(.autoRenewable)
        let product = try onlyProduct(fixture.load())
        let subscription = try #require(product.subscription)
        #expect(subscription.group.value == "premium")
        #expect(subscription.group.location.line == fixture.line("group"))
        #expect(subscription.level == nil)
        #expect(subscription.effectiveLevel == 1)
        #expect(subscription.period.value == .oneMonth)
        #expect(subscription.introductoryOffer == nil)
        #expect(product.duration == nil)
    }

    @Test(arguments: SubscriptionPeriod.allCases)
    func everySubscriptionPeriod(period: SubscriptionPeriod) throws {
        let product = try onlyProduct(CatalogFixture(.autoRenewable).with("period", period.rawValue).load())
        #expect(product.subscription?.period.value == period)
    }

    @Test(arguments: [("P2W", "P1W"), ("P1D", nil), ("p1m", "P1M"), ("P12M", nil), ("monthly", nil)] as [(String, String?)])
    func otherPeriodsAreInvalidValues(written: String, suggestion: String?) throws {
        let fixture = CatalogFixture(.autoRenewable).with("period", written)
        let diagnostic = try expectOnlyAtValue(
            fixture, "period", "invalid-value", mentions: ["'\(written)'", "subscription period", "P1W, P1M, P2M, P3M, P6M, P1Y"])
        if let suggestion {
            #expect(diagnostic.message.mentions("did you mean '\(suggestion)'?"))
        }
    }

    @Test func levelsFrom1To100() throws {
        #expect(try onlyProduct(CatalogFixture(.autoRenewable).with("level", "100").load()).subscription?.effectiveLevel == 100)
        let fixture = CatalogFixture(.autoRenewable).with("level", "0")
        try expectOnlyAtValue(fixture, "level", "out-of-range", mentions: ["'level' is 0", "from 1 to 100"])
    }

    @Test func aQuotedLevelIsText() throws {
        let fixture = CatalogFixture(.autoRenewable).with("level", "\"2\"")
        try expectOnlyAtValue(fixture, "level", "wrong-kind", mentions: ["in quotes"])
    }

    @Test func aMissingPeriodIsReportedAtTheProduct() throws {
        let fixture = CatalogFixture(.autoRenewable).without("period")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, fixture.productColumn)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.productLine, 5, mentions: ["missing 'period'", "period: P1M"])
    }

    @Test func groupAndPeriodMissingTogetherAreBothReported() throws {
        let fixture = CatalogFixture(.autoRenewable).without("period", "group")
        expectExactly(fixture.load().diagnostics, [("missing-key", fixture.productLine, 5), ("missing-key", fixture.productLine, 5)])
    }

    @Test func anUndeclaredGroupSuggestsTheNearest() throws {
        let fixture = CatalogFixture(.autoRenewable).with("group", "premum")
        try expectOnlyAtValue(
            fixture, "group", "undeclared-reference", mentions: ["the group 'premum' is not declared", "did you mean 'premium'?"])
    }

    @Test func anInvalidGroupName() throws {
        let fixture = CatalogFixture(.autoRenewable).with("group", "\"9lives\"")
        try expectOnlyAtValue(fixture, "group", "invalid-name", mentions: ["starts with '9'", "starts with a letter"])
    }

    // MARK: Introductory offers

    func offer(_ text: String, period: String = "P1M", price: String = "\"3.99\"") -> CatalogFixture {
        CatalogFixture(.autoRenewable).with("price", price).with("period", period).with("introductory-offer", text)
    }

    func column(of needle: String, in fixture: CatalogFixture) -> Int {
        position(of: needle, in: fixture.text).column
    }

    @Test(arguments: ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"])
    func freeTrialPeriods(period: String) throws {
        let product = try onlyProduct(offer("{mode: free-trial, period: \(period)}").load())
        let trial = try #require(product.subscription?.introductoryOffer)
        #expect(trial.mode.value == .freeTrial)
        #expect(trial.period.value.description == period)
        #expect(trial.price == nil && trial.periods == nil)
    }

    @Test(arguments: [("P7D", "P1W"), ("P14D", "P2W"), ("P10D", nil), ("P12M", "P1Y"), ("P5W", nil)] as [(String, String?)])
    func aLengthWrittenAnotherWayIsNamedInTheAllowedSpelling(period: String, same: String?) throws {
        let fixture = offer("{mode: free-trial, period: \(period)}")
        let result = fixture.load()
        let diagnostic = try #require(result.diagnostics.first { $0.rule == "invalid-period" })
        #expect(diagnostic.message.hasPrefix("a free trial lasts one of P3D, P1W, P2W, P1M, P2M, P3M, P6M, P1Y, not "), "\(diagnostic.message)")
        if let same {
            #expect(diagnostic.message.hasSuffix("; \(period) is \(same), write that"), "\(diagnostic.message)")
        } else {
            #expect(diagnostic.message.hasSuffix("not \(period)"), "\(diagnostic.message)")
        }
    }

    @Test(arguments: ["P5D", "P4M", "P1Y6M", "P3W"])
    func otherFreeTrialLengthsAreInvalid(period: String) throws {
        let fixture = offer("{mode: free-trial, period: \(period)}")
        let result = fixture.load()
        let column = column(of: period + "}", in: fixture)
        expectExactly(result.diagnostics, [("invalid-period", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(
            result.diagnostics, "invalid-period", at: fixture.line("introductory-offer"), column,
            mentions: ["a free trial lasts one of", "P1W", "not \(period)"])
    }

    @Test func aFreeTrialHasNoPriceAndNoPeriods() throws {
        let fixture = offer("{mode: free-trial, period: P1W, periods: 2, price: \"0.99\"}")
        let result = fixture.load()
        let line = fixture.line("introductory-offer")
        let periods = column(of: "periods: 2", in: fixture)
        let price = column(of: "price: \"0.99\"}", in: fixture)
        expectExactly(result.diagnostics, [("not-applicable", line, periods), ("not-applicable", line, price)])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: line, price, mentions: ["free trial has no 'price'"])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: line, periods, mentions: ["free trial has no 'periods'"])
    }

    @Test func payAsYouGo() throws {
        let product = try onlyProduct(offer("{mode: pay-as-you-go, period: P1M, periods: 3, price: \"0.99\"}").load())
        let deal = try #require(product.subscription?.introductoryOffer)
        #expect(deal.mode.value == .payAsYouGo)
        #expect(deal.period.value == ISOPeriod(months: 1))
        #expect(deal.periods?.value == 3)
        #expect(deal.price?.value.cents == 99)
    }

    @Test func payAsYouGoBillsEverySubscriptionPeriod() throws {
        let fixture = offer("{mode: pay-as-you-go, period: P1W, periods: 3, price: \"0.99\"}")
        let result = fixture.load()
        let line = fixture.line("introductory-offer")
        let offerPeriod = column(of: "P1W", in: fixture)
        expectExactly(result.diagnostics, [("invalid-period", line, offerPeriod)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "invalid-period", at: line, offerPeriod, mentions: ["pay-as-you-go", "P1M", "not P1W"])
        expectNote(diagnostic, at: fixture.line("period"), fixture.valueColumn("period"), mentions: ["subscription's period"])
    }

    @Test(arguments: ["pay-as-you-go", "pay-up-front"])
    func paidOffersNeedAPrice(mode: String) throws {
        let fixture = offer("{mode: \(mode), period: P1M}")
        let result = fixture.load()
        let column = fixture.valueColumn("introductory-offer")
        expectExactly(result.diagnostics, [("missing-key", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(
            result.diagnostics, "missing-key", at: fixture.line("introductory-offer"), column,
            mentions: ["a \(mode) offer is missing 'price'", "price: \"0.99\""])
    }

    @Test func payUpFront() throws {
        let product = try onlyProduct(offer("{mode: pay-up-front, period: P6M, price: \"9.99\"}", period: "P1Y", price: "\"29.99\"").load())
        let deal = try #require(product.subscription?.introductoryOffer)
        #expect(deal.mode.value == .payUpFront)
        #expect(deal.period.value == ISOPeriod(months: 6))
        #expect(deal.price?.value.cents == 999)
    }

    @Test func payUpFrontHasNoPeriods() throws {
        let fixture = offer("{mode: pay-up-front, period: P3M, periods: 2, price: \"0.99\"}")
        let result = fixture.load()
        let column = column(of: "periods:", in: fixture)
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: fixture.line("introductory-offer"), column, mentions: ["'periods' applies to pay-as-you-go"])
    }

    @Test func payUpFrontPeriods() throws {
        let fixture = offer("{mode: pay-up-front, period: P1W, price: \"0.99\"}")
        let result = fixture.load()
        let column = column(of: "P1W", in: fixture)
        expectExactly(result.diagnostics, [("invalid-period", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-period", at: fixture.line("introductory-offer"), column, mentions: ["pay-up-front offer lasts one of", "P1M"])
    }

    // An offer that costs no less than the subscription is a warning (`offer-price`), not an error: the
    // catalog still holds it, as StoreKit configuration files often have such offers.
    @Test(arguments: ["\"3.99\"", "\"4.99\"", "3.99"])
    func aPayAsYouGoPriceNotLowerThanTheProductPriceIsAWarning(price: String) throws {
        let fixture = offer("{mode: pay-as-you-go, period: P1M, price: \(price)}")
        let result = fixture.load()
        let line = fixture.line("introductory-offer")
        let column = column(of: price + "}", in: fixture)
        expectExactly(result.diagnostics, [("offer-price", line, column)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "offer-price", at: line, column, severity: .warning,
            mentions: ["introductory price", "not lower than the subscription's price (3.99)"])
        expectNote(diagnostic, at: fixture.line("price"), fixture.valueColumn("price"), mentions: ["subscription's price"])
        #expect(result.catalog?.products.first?.subscription?.introductoryOffer?.price?.value.cents == Price(parsing: price.filter { $0 != "\"" })?.cents)
    }

    // A pay-up-front price buys the whole offer period: it is compared with the subscription's price over
    // that time (three months of 3.99 a month is 11.97).
    @Test(arguments: [("11.97", true), ("12.00", true), ("11.96", false), ("3.99", false)])
    func aPayUpFrontPriceIsComparedOverItsPeriod(price: String, warns: Bool) throws {
        let fixture = offer("{mode: pay-up-front, period: P3M, price: \"\(price)\"}")
        let result = fixture.load()
        if warns {
            let line = fixture.line("introductory-offer")
            expectExactly(result.diagnostics, [("offer-price", line, column(of: "\"\(price)\"", in: fixture))])
            #expect(result.diagnostics.first?.message.mentions("over the same time (3.99 every P1M)") == true)
        } else {
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        }
    }

    @Test func anOfferNeedsAModeAndAPeriod() throws {
        let fixture = offer("{price: \"0.99\"}")
        let result = fixture.load()
        let column = fixture.valueColumn("introductory-offer")
        expectExactly(result.diagnostics, [("missing-key", fixture.line("introductory-offer"), column), ("missing-key", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.line("introductory-offer"), column, mentions: ["missing 'mode'"])
        #expect(result.diagnostics.contains { $0.message.mentions("missing 'period'") })
    }

    @Test func aMisspelledModeSuggestsTheNearest() throws {
        let fixture = offer("{mode: free-trail, period: P1W}")
        let column = column(of: "free-trail", in: fixture)
        let result = fixture.load()
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "invalid-value", at: fixture.line("introductory-offer"), column, mentions: ["offer mode", "did you mean 'free-trial'?"])
    }

    @Test func offerPeriodsFrom1To12() throws {
        let fixture = offer("{mode: pay-as-you-go, period: P1M, periods: 13, price: \"0.99\"}")
        let column = column(of: "13", in: fixture)
        let result = fixture.load()
        expectExactly(result.diagnostics, [("out-of-range", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "out-of-range", at: fixture.line("introductory-offer"), column, mentions: ["'periods' is 13", "from 1 to 12"])
    }

    @Test func anUnknownOfferKey() throws {
        let fixture = offer("{mode: free-trial, period: P1W, lenght: 2}")
        let column = column(of: "lenght", in: fixture)
        let result = fixture.load()
        expectExactly(result.diagnostics, [("unknown-key", fixture.line("introductory-offer"), column)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("introductory-offer"), column, mentions: ["'introductory-offer'", "expected one of: mode, period, periods, price"])
    }

    @Test func anOfferMustBeAMapping() throws {
        let fixture = offer("free-trial")
        try expectOnlyAtValue(fixture, "introductory-offer", "wrong-kind", mentions: ["'introductory-offer' should be a mapping"])
    }

    // MARK: Non-renewing: duration

    @Test(arguments: [("P3M", ISOPeriod(months: 3)), ("P1Y", ISOPeriod(years: 1)), ("P1Y6M", ISOPeriod(years: 1, months: 6)),
                      ("P10D", ISOPeriod(days: 10)), ("P2W", ISOPeriod(weeks: 2))])
    func durations(written: String, period: ISOPeriod) throws {
        let product = try onlyProduct(CatalogFixture(.nonRenewing).with("duration", written).load())
        #expect(product.duration?.value == period)
        #expect(product.subscription == nil)
    }

    @Test func aMissingDurationIsReportedAtTheProduct() throws {
        let fixture = CatalogFixture(.nonRenewing).without("duration")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, fixture.productColumn)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.productLine, 5, mentions: ["missing 'duration'", "duration: P3M"])
    }

    @Test(arguments: [("PT1H", "time part"), ("P1DT12H", "time part"), ("P0M", "zero long"), ("P0Y0D", "zero long"),
                      ("3M", "not an ISO 8601 period"), ("\"3 months\"", "not an ISO 8601 period"), ("P", "not an ISO 8601 period"),
                      ("P1M1Y", "not an ISO 8601 period"), ("P1", "not an ISO 8601 period"), ("p3m", "not an ISO 8601 period"),
                      ("P1.5M", "not an ISO 8601 period")])
    func invalidDurations(written: String, words: String) throws {
        let fixture = CatalogFixture(.nonRenewing).with("duration", written)
        try expectOnlyAtValue(fixture, "duration", "invalid-period", mentions: ["'duration'", words])
    }
}
