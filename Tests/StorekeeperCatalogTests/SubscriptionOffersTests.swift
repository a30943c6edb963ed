import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// `offers`: promotional, offer-code and win-back offers of an auto-renewable
/// subscription, whose terms follow the introductory offer's rules.
@Suite struct SubscriptionOffersTests {
    /// An auto-renewable subscription at 3.99 every month, with `offers` set to `text`.
    func offers(_ text: String) -> CatalogFixture {
        CatalogFixture(.autoRenewable).with("price", "\"3.99\"").with("offers", text)
    }

    func column(of needle: String, in fixture: CatalogFixture, occurrence: Int = 1) -> Int {
        position(of: needle, in: fixture.text, occurrence: occurrence).column
    }

    static let promotional = #"{id: spring.promo, kind: promotional, reference-name: Spring Promo, mode: pay-as-you-go, period: P1M, periods: 3, price: "1.99"}"#
    static let code = #"{id: code.trial, kind: offer-code, reference-name: Code Trial, mode: free-trial, period: P2W}"#
    static let winBack = #"{id: come-back_1, kind: win-back, reference-name: Come Back, mode: pay-up-front, period: P6M, price: "9.99"}"#

    @Test func everyKindDecodesWithItsTermsInOrder() throws {
        let fixture = offers("[\(Self.promotional), \(Self.code), \(Self.winBack)]")
        let product = try onlyProduct(fixture.load())
        let list = try #require(product.subscription?.offers)
        try #require(list.count == 3)
        #expect(list.map(\.id.value) == ["spring.promo", "code.trial", "come-back_1"])
        #expect(list.map(\.kind.value) == [.promotional, .offerCode, .winBack])
        #expect(list.map(\.referenceName.value) == ["Spring Promo", "Code Trial", "Come Back"])
        #expect(list.map(\.mode.value) == [.payAsYouGo, .freeTrial, .payUpFront])
        #expect(list.map(\.period.value) == [ISOPeriod(months: 1), ISOPeriod(weeks: 2), ISOPeriod(months: 6)])
        #expect(list.map { $0.periods?.value } == [3, nil, nil])
        #expect(list.map { $0.price?.value.cents } == [199, nil, 999])
        let line = fixture.line("offers")
        #expect(list[0].id.location.line == line && list[0].id.location.column == column(of: "spring.promo", in: fixture))
        #expect(list[2].location.column == column(of: "{id: come-back_1", in: fixture))
        #expect(product.subscription?.introductoryOffer == nil)
    }

    @Test func anEmptyListAndNoListAreNoOffers() throws {
        #expect(try onlyProduct(offers("[]").load()).subscription?.offers.isEmpty == true)
        #expect(try onlyProduct(CatalogFixture(.autoRenewable).load()).subscription?.offers.isEmpty == true)
    }

    @Test func aDuplicateIDIsAnErrorWithANoteAtTheFirst() throws {
        let fixture = offers("[\(Self.promotional), {id: spring.promo, kind: win-back, reference-name: Again, mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let line = fixture.line("offers")
        let second = column(of: "spring.promo", in: fixture, occurrence: 2)
        expectExactly(result.diagnostics, [("duplicate-id", line, second)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "duplicate-id", at: line, second, mentions: ["offer id 'spring.promo'", "already used"])
        expectNote(diagnostic, at: line, column(of: "spring.promo", in: fixture), mentions: ["first used here"])
        #expect(result.catalog?.products.isEmpty == true, "a product with an error is left out")
    }

    @Test(arguments: [("spring promo", "a space"), (String(repeating: "x", count: 101), "101")])
    func anOfferIDHasTheCharactersAndLengthOfAProductID(id: String, problem: String) throws {
        let fixture = offers("[{id: \"\(id)\", kind: promotional, reference-name: Promo, mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let at = column(of: "\"\(id)\"", in: fixture)
        expectExactly(result.diagnostics, [("invalid-name", fixture.line("offers"), at)])
        try expectDiagnostic(result.diagnostics, "invalid-name", at: fixture.line("offers"), at, mentions: ["the offer id", problem])
    }

    @Test func aMisspeltKindSuggestsTheNearest() throws {
        let fixture = offers("[{id: back, kind: win-bak, reference-name: Back, mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let at = column(of: "win-bak", in: fixture)
        expectExactly(result.diagnostics, [("invalid-value", fixture.line("offers"), at)])
        try expectDiagnostic(
            result.diagnostics, "invalid-value", at: fixture.line("offers"), at,
            mentions: ["offer kind", "did you mean 'win-back'?", "promotional, offer-code, win-back"])
    }

    @Test func idKindAndReferenceNameAreRequired() throws {
        let fixture = offers("[{mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let at = column(of: "[{mode", in: fixture) + 1
        expectExactly(result.diagnostics, [("missing-key", fixture.line("offers"), at), ("missing-key", fixture.line("offers"), at), ("missing-key", fixture.line("offers"), at)])
        for key in ["'id'", "'kind'", "'reference-name'"] {
            #expect(result.diagnostics.contains { $0.message.mentions("missing \(key)") }, "\(describe(result.diagnostics))")
        }
    }

    @Test func aReferenceNameHasAtMost64Characters() throws {
        let name = String(repeating: "n", count: 65)
        let fixture = offers("[{id: long, kind: promotional, reference-name: \(name), mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let at = column(of: name, in: fixture)
        expectExactly(result.diagnostics, [("out-of-range", fixture.line("offers"), at)])
        try expectDiagnostic(result.diagnostics, "out-of-range", at: fixture.line("offers"), at, mentions: ["65 characters", "at most 64"])
    }

    @Test func aMisspeltKeyIsReportedOnceAsTheTypo() throws {
        let fixture = offers("[{id: promo, kind: promotional, refrence-name: Promo, mode: free-trial, period: P1W}]")
        let result = fixture.load()
        let at = column(of: "refrence-name", in: fixture)
        expectExactly(result.diagnostics, [("unknown-key", fixture.line("offers"), at)])
        try expectDiagnostic(result.diagnostics, "unknown-key", at: fixture.line("offers"), at, mentions: ["in an offer", "did you mean 'reference-name'?"])
    }

    // The terms are read by the introductory offer's code: the same checks, the same messages.
    @Test func aFreeTrialOfferHasNoPrice() throws {
        let fixture = offers(#"[{id: trial, kind: offer-code, reference-name: Trial, mode: free-trial, period: P1W, price: "0.99"}]"#)
        let result = fixture.load()
        let at = column(of: "price: \"0.99\"}", in: fixture)
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("offers"), at)])
        try expectDiagnostic(result.diagnostics, "not-applicable", at: fixture.line("offers"), at, mentions: ["a free trial has no 'price'"])
    }

    @Test func aPayAsYouGoOfferBillsAtTheSubscriptionsPeriod() throws {
        let fixture = offers(#"[{id: weekly, kind: promotional, reference-name: Weekly, mode: pay-as-you-go, period: P1W, price: "0.99"}]"#)
        let result = fixture.load()
        let at = column(of: "P1W", in: fixture)
        expectExactly(result.diagnostics, [("invalid-period", fixture.line("offers"), at)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "invalid-period", at: fixture.line("offers"), at, mentions: ["every period of the subscription, P1M"])
        expectNote(diagnostic, at: fixture.line("period"), fixture.valueColumn("period"), mentions: ["subscription's period"])
    }

    @Test func aPayUpFrontOfferHasAPriceAndNoPeriods() throws {
        let fixture = offers(#"[{id: upfront, kind: win-back, reference-name: Up Front, mode: pay-up-front, period: P3M, periods: 2}]"#)
        let result = fixture.load()
        let line = fixture.line("offers")
        expectExactly(result.diagnostics, [("not-applicable", line, column(of: "periods:", in: fixture)), ("missing-key", line, column(of: "{id: upfront", in: fixture))])
        #expect(result.diagnostics.contains { $0.message.mentions("a pay-up-front offer is missing 'price'") })
    }

    @Test func anOfferPriceNotLowerThanTheSubscriptionIsAWarningNamingTheOffer() throws {
        let fixture = offers(#"[{id: pricey, kind: promotional, reference-name: Pricey, mode: pay-as-you-go, period: P1M, periods: 2, price: "20.15"}]"#)
        let result = fixture.load()
        let at = column(of: "\"20.15\"", in: fixture)
        expectExactly(result.diagnostics, [("offer-price", fixture.line("offers"), at)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "offer-price", at: fixture.line("offers"), at, severity: .warning,
            mentions: ["promotional offer 'pricey'", "20.15 every P1M", "not lower than the subscription's price (3.99)"])
        expectNote(diagnostic, at: fixture.line("price"), fixture.valueColumn("price"))
        // A warning keeps the product and its offer.
        #expect(result.catalog?.products.first?.subscription?.offers.first?.price?.value.cents == 2015)
    }

    @Test(arguments: [CatalogFixture.Kind.nonConsumable, .consumable, .nonRenewing])
    func offersApplyOnlyToAutoRenewableSubscriptions(kind: CatalogFixture.Kind) throws {
        let fixture = CatalogFixture(kind).with("offers", "[\(Self.code)]")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("offers"), fixture.keyColumn)])
        try expectDiagnostic(
            result.diagnostics, "not-applicable", at: fixture.line("offers"), fixture.keyColumn,
            mentions: ["'offers' applies only to auto-renewable subscriptions", "so remove it"])
        // The introductory offer gets the same error there.
        let intro = CatalogFixture(kind).with("introductory-offer", "{mode: free-trial, period: P1W}").load()
        let introMessage = try #require(intro.diagnostics.first?.message)
        #expect(introMessage.mentions("applies only to auto-renewable subscriptions"))
    }

    @Test func offersMustBeAList() throws {
        let fixture = offers(Self.code)
        let result = fixture.load()
        expectExactly(result.diagnostics, [("wrong-kind", fixture.line("offers"), fixture.valueColumn("offers"))])
        try expectDiagnostic(result.diagnostics, "wrong-kind", at: fixture.line("offers"), fixture.valueColumn("offers"), mentions: ["'offers' should be"])
    }
}
