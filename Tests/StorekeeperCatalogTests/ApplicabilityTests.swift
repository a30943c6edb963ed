import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

/// Fields that do not apply to the product's type are reported at their key.
@Suite struct ApplicabilityTests {
    /// Values that would be valid where the field applies.
    static let values: [String: String] = [
        "family-shareable": "true",
        "max-quantity": "2",
        "group": "premium",
        "level": "1",
        "period": "P1M",
        "introductory-offer": "{mode: free-trial, period: P1W}",
        "duration": "P3M",
    ]

    /// Adds every field in `keys` and expects exactly one not-applicable
    /// error per field, at its key, naming the field, the types it applies to
    /// and the product's type.
    func expectNotApplicable(_ kind: CatalogFixture.Kind, typeName: String, keys: [String], appliesTo: [String: String]) throws {
        var fixture = CatalogFixture(kind)
        for key in keys { fixture = fixture.with(key, Self.values[key]!) }
        let result = fixture.load()
        expectExactly(result.diagnostics, keys.map { ("not-applicable", fixture.line($0), fixture.keyColumn) })
        for key in keys {
            try expectDiagnostic(
                result.diagnostics, "not-applicable", at: fixture.line(key), fixture.keyColumn,
                mentions: ["'\(key)' applies only to \(appliesTo[key]!)", "this product is \(typeName)", "remove it"])
        }
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func consumables() throws {
        try expectNotApplicable(
            .consumable, typeName: "consumable",
            keys: ["family-shareable", "group", "level", "period", "introductory-offer", "duration"],
            appliesTo: [
                "family-shareable": "non-consumables and auto-renewable subscriptions",
                "group": "auto-renewable subscriptions", "level": "auto-renewable subscriptions",
                "period": "auto-renewable subscriptions", "introductory-offer": "auto-renewable subscriptions",
                "duration": "non-renewing subscriptions",
            ])
    }

    @Test func nonConsumables() throws {
        try expectNotApplicable(
            .nonConsumable, typeName: "non-consumable",
            keys: ["max-quantity", "group", "level", "period", "introductory-offer", "duration"],
            appliesTo: [
                "max-quantity": "consumables",
                "group": "auto-renewable subscriptions", "level": "auto-renewable subscriptions",
                "period": "auto-renewable subscriptions", "introductory-offer": "auto-renewable subscriptions",
                "duration": "non-renewing subscriptions",
            ])
    }

    @Test func autoRenewableSubscriptions() throws {
        try expectNotApplicable(
            .autoRenewable, typeName: "auto-renewable-subscription",
            keys: ["max-quantity", "duration"],
            appliesTo: ["max-quantity": "consumables", "duration": "non-renewing subscriptions"])
        let fixture = CatalogFixture(.autoRenewable).with("duration", "P3M")
        try expectDiagnostic(fixture.load().diagnostics, "not-applicable", at: fixture.line("duration"), 5, mentions: ["renews every `period`"])
    }

    @Test func nonRenewingSubscriptions() throws {
        try expectNotApplicable(
            .nonRenewing, typeName: "non-renewing-subscription",
            keys: ["family-shareable", "max-quantity", "group", "level", "period", "introductory-offer"],
            appliesTo: [
                "family-shareable": "non-consumables and auto-renewable subscriptions",
                "max-quantity": "consumables",
                "group": "auto-renewable subscriptions", "level": "auto-renewable subscriptions",
                "period": "auto-renewable subscriptions", "introductory-offer": "auto-renewable subscriptions",
            ])
        let fixture = CatalogFixture(.nonRenewing).with("period", "P1M")
        try expectDiagnostic(fixture.load().diagnostics, "not-applicable", at: fixture.line("period"), 5, mentions: ["lasts a `duration`"])
    }

    @Test func familyShareableOnAConsumableIsReportedWhateverItsValue() throws {
        // At the key: the key is what the author must remove. A bad value is reported too.
        let fixture = CatalogFixture(.consumable).with("family-shareable", "false")
        expectExactly(fixture.load().diagnostics, [("not-applicable", fixture.line("family-shareable"), 5)])
    }

    @Test func periodWithoutGroupOnASubscriptionIsAMissingGroup() throws {
        let fixture = CatalogFixture(.autoRenewable).without("group")
        let result = fixture.load()
        expectExactly(result.diagnostics, [("missing-key", fixture.productLine, fixture.productColumn)])
        try expectDiagnostic(result.diagnostics, "missing-key", at: fixture.productLine, 5, mentions: ["missing 'group'", "group: pro"])
    }

    @Test func periodWithoutGroupOnANonConsumableIsNotApplicable() throws {
        let fixture = CatalogFixture().with("period", "P1M")
        expectExactly(fixture.load().diagnostics, [("not-applicable", fixture.line("period"), 5)])
    }

    // MARK: Grants outside consumables

    @Test(arguments: [CatalogFixture.Kind.nonConsumable, .autoRenewable, .nonRenewing])
    func grantsApplyOnlyToConsumables(kind: CatalogFixture.Kind) throws {
        let fixture = CatalogFixture(kind).with("delivery", "{model: built-in, unlocks: [pro], grants: {coins: 5}}")
        let result = fixture.load()
        let column = position(of: "coins: 5", in: fixture.text).column
        expectExactly(result.diagnostics, [("not-applicable", fixture.line("delivery"), column)])
        let diagnostic = try expectDiagnostic(
            result.diagnostics, "not-applicable", at: fixture.line("delivery"), column,
            mentions: ["'grants' applies only to consumables", "use `unlocks`"])
        #expect(diagnostic.notes.isEmpty)
        #expect(result.catalog?.products.isEmpty == true)
    }

    @Test func grantsInheritedFromDefaultsNameTheProductInANote() throws {
        let fixture = CatalogFixture()
            .without("delivery")
            .addingHeader("defaults:", "  delivery: {model: built-in, grants: {coins: 5}}")
        let result = fixture.load()
        let grant = position(of: "coins: 5", in: fixture.text)
        #expect(grant.line == 10)
        expectExactly(result.diagnostics, [("not-applicable", grant.line, grant.column)])
        let diagnostic = try expectDiagnostic(result.diagnostics, "not-applicable", at: grant.line, grant.column, mentions: ["non-consumable"])
        expectNote(diagnostic, at: fixture.productLine, fixture.productColumn, mentions: ["inherits"])
    }

    @Test func consumablesMayGrantAndUnlock() throws {
        let product = try onlyProduct(
            CatalogFixture(.consumable).with("delivery", "{model: server, unlocks: [extra], grants: {coins: 10, gems: 2}}").load())
        #expect(product.delivery.grants.map(\.balance.value) == ["coins", "gems"])
        #expect(product.delivery.grants.map(\.amount.value) == [10, 2])
        #expect(product.delivery.unlocks.map(\.value) == ["extra"])
    }

    // MARK: What does apply

    @Test func everyFieldThatAppliesIsAccepted() throws {
        let consumable = try onlyProduct(CatalogFixture(.consumable).with("max-quantity", "4").load())
        #expect(consumable.quantityLimit == 4)
        let nonConsumable = try onlyProduct(CatalogFixture().with("family-shareable", "true").load())
        #expect(nonConsumable.isFamilyShareable)
        let auto = try onlyProduct(
            CatalogFixture(.autoRenewable).with("family-shareable", "true").with("level", "3")
                .with("introductory-offer", "{mode: free-trial, period: P2W}").load())
        #expect(auto.isFamilyShareable)
        #expect(auto.subscription?.effectiveLevel == 3)
        #expect(auto.subscription?.introductoryOffer?.period.value == ISOPeriod(weeks: 2))
        let nonRenewing = try onlyProduct(CatalogFixture(.nonRenewing).with("duration", "P1Y").load())
        #expect(nonRenewing.duration?.value == ISOPeriod(years: 1))
    }
}
