import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// Made-up configurations, written in Xcode's layout by the writer, for the reader's cases.
enum Sample {
    static func product(_ id: String, type: String = "NonConsumable", price: String = "0.99", extra: KeyValuePairs<String, StoreKitValue> = [:]) -> StoreKitValue {
        var value = StoreKitValue.object([
            "displayPrice": .string(price), "familyShareable": .bool(false), "internalID": .string("AAAA0001"),
            "localizations": .array([.object(["description": .string("Every feature"), "displayName": .string("Pro"), "locale": .string("en_US")])]),
            "productID": .string(id), "referenceName": .string(id), "type": .string(type),
        ])
        for (key, member) in extra { value[key] = member }
        return value
    }

    static func subscription(_ id: String, group: String = "G1", period: String = "P1M", price: String = "4.99", extra: KeyValuePairs<String, StoreKitValue> = [:]) -> StoreKitValue {
        var value = product(id, type: "RecurringSubscription", price: price)
        value["adHocOffers"] = .array([])
        value["codeOffers"] = .array([])
        value["winbackOffers"] = .array([])
        value["groupNumber"] = .integer(1)
        value["introductoryOffer"] = .null
        value["recurringSubscriptionPeriod"] = .string(period)
        value["subscriptionGroupID"] = .string(group)
        for (key, member) in extra { value[key] = member }
        return value
    }

    static func group(_ name: String, id: String = "G1", subscriptions: [StoreKitValue], localizations: [StoreKitValue] = []) -> StoreKitValue {
        .object(["id": .string(id), "localizations": .array(localizations), "name": .string(name), "subscriptions": .array(subscriptions)])
    }

    static func file(
        products: [StoreKitValue] = [product("pro")], nonRenewing: [StoreKitValue] = [], groups: [StoreKitValue] = [],
        version: StoreKitValue = .object(["major": .integer(4), "minor": .integer(0)]), extra: KeyValuePairs<String, StoreKitValue> = [:]
    ) -> String {
        var value = StoreKitValue.object([
            "identifier": .string("ABCD1234"), "nonRenewingSubscriptions": .array(nonRenewing), "products": .array(products),
            "settings": .object([]), "subscriptionGroups": .array(groups), "version": version,
        ])
        for (key, member) in extra { value[key] = member }
        return StoreKitWriter().write(value)
    }

    static func version(_ major: Int, _ minor: Int) -> StoreKitValue { .object(["major": .integer(major), "minor": .integer(minor)]) }
}

/// Reading: every problem is a located diagnostic, every key is read or reported.
@Suite struct StoreKitReaderTests {
    func expectOne(
        _ result: StoreKitReader.Result, _ rule: String, _ severity: Severity = .error, at needle: String, occurrence: Int = 1, in text: String,
        mentions words: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let place = try #require(position(of: needle, in: text, occurrence: occurrence), sourceLocation: sourceLocation)
        try expectOne(result, rule, severity, atLine: place.line, column: place.column, mentions: words, sourceLocation: sourceLocation)
    }

    func expectOne(
        _ result: StoreKitReader.Result, _ rule: String, _ severity: Severity = .error, atLine line: Int, column: Int,
        mentions words: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let place = (line: line, column: column)
        let found = result.diagnostics.filter { $0.rule == rule && $0.location.line == place.line && $0.location.column == place.column }
        let diagnostic = try #require(found.first, "no \(rule) at \(place) in\n\(describe(result.diagnostics))", sourceLocation: sourceLocation)
        #expect(diagnostic.severity == severity, sourceLocation: sourceLocation)
        #expect(diagnostic.location.file == "test.storekit", sourceLocation: sourceLocation)
        for word in words { #expect(diagnostic.message.contains(word), "\(diagnostic.message)", sourceLocation: sourceLocation) }
    }

    @Test func aSampleFileReadsCleanlyWithItsProductsAndGroups() throws {
        let text = Sample.file(
            products: [Sample.product("pro"), Sample.product("coins", type: "Consumable")],
            nonRenewing: [Sample.product("pass", type: "NonRenewingSubscription")],
            groups: [Sample.group("Premium", subscriptions: [Sample.subscription("monthly")])])
        let result = readConfiguration(text)
        #expect(!result.hasErrors && !result.diagnostics.contains { $0.severity == .warning }, "\(describe(result.diagnostics))")
        let configuration = try #require(result.configuration)
        #expect(configuration.version.value == StoreKitVersion(4, 0))
        #expect(configuration.products.map(\.productID.value) == ["pro", "coins", "pass"])
        #expect(configuration.products.map(\.type.value) == [.nonConsumable, .consumable, .nonRenewingSubscription])
        #expect(configuration.groups.map(\.name.value) == ["Premium"])
        #expect(configuration.groups[0].subscriptions[0].subscription?.period.value == "P1M")
    }

    @Test(arguments: [(0, 9), (6, 0), (4, 1), (1, 3)])
    func anUnsupportedVersionIsAnErrorNamingTheSupportedOnes(major: Int, minor: Int) throws {
        let text = Sample.file(version: Sample.version(major, minor))
        let result = readConfiguration(text)
        #expect(result.configuration == nil)
        let key = try #require(position(of: "\"version\" : {", in: text))
        try expectOne(
            result, StoreKitRuleID.version, atLine: key.line, column: key.column + 12,
            mentions: ["version \(major).\(minor) is not one this reader reads", "1.0, 1.1, 1.2, 2.0, 3.0, 4.0, 5.0"])
    }

    @Test func everyVersionFrom1To5IsRead() {
        for version in StoreKitVersion.supported {
            let result = readConfiguration(Sample.file(version: version.value))
            #expect(!result.hasErrors && result.configuration?.version.value == version, "\(version): \(describe(result.diagnostics))")
        }
    }

    @Test func aFileWithoutAVersionIsAnError() throws {
        let text = StoreKitWriter().write(.object(["products": .array([])]))
        let result = readConfiguration(text)
        #expect(result.configuration == nil)
        try expectOne(result, StoreKitRuleID.missingKey, at: "{", in: text, mentions: ["no `version`"])
    }

    @Test func aProductWithoutProductIDIsAnErrorAtTheProduct() throws {
        var product = Sample.product("pro")
        product["productID"] = nil
        let text = Sample.file(products: [product])
        let result = readConfiguration(text)
        let list = try #require(position(of: "\"products\" : [", in: text))
        try expectOne(result, StoreKitRuleID.missingKey, atLine: list.line + 1, column: 5, mentions: ["`products[0]` has no `productID`", "a product needs one"])
        #expect(result.configuration?.products.isEmpty == true)
    }

    @Test func aWrongTypeIsAnErrorWithTheNearestSpelling() throws {
        let text = Sample.file(products: [Sample.product("pro", type: "NonConsumables")])
        try expectOne(
            readConfiguration(text), StoreKitRuleID.invalidValue, at: "\"NonConsumables\"", in: text,
            mentions: ["'NonConsumables' is not a product type", "did you mean 'NonConsumable'?", "Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription"])
    }

    @Test func aValueOfTheWrongKindIsAnErrorAtTheValue() throws {
        let text = Sample.file(products: [Sample.product("pro", extra: ["familyShareable": .string("no")])])
        try expectOne(readConfiguration(text), StoreKitRuleID.wrongKind, at: "\"no\"", in: text, mentions: ["`products[0].familyShareable` should be true or false, not a string"])
        let numbers = Sample.file(groups: [Sample.group("G", subscriptions: [Sample.subscription("s", extra: ["groupNumber": .string("1")])])])
        try expectOne(readConfiguration(numbers), StoreKitRuleID.wrongKind, at: "\"1\"", in: numbers, mentions: ["groupNumber` should be a whole number"])
    }

    @Test func aDuplicateKeyIsAnErrorAtTheSecond() throws {
        let text = Sample.file().replacingOccurrences(of: "\"referenceName\" : \"pro\",", with: "\"referenceName\" : \"pro\",\n      \"referenceName\" : \"again\",")
        let result = readConfiguration(text)
        #expect(result.configuration == nil)
        try expectOne(result, StoreKitRuleID.syntax, at: "\"referenceName\"", occurrence: 2, in: text, mentions: ["duplicate key 'referenceName'"])
    }

    @Test func textThatIsNotJSONIsAnError() throws {
        let result = readConfiguration("products:\n  - id: pro\n")
        #expect(result.configuration == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1 && diagnostic.rule == StoreKitRuleID.syntax && diagnostic.location.line == 1 && diagnostic.location.column == 1)
    }

    @Test func anUnknownKeyIsAWarningWithTheNearestKnownKey() throws {
        let text = Sample.file(products: [Sample.product("pro", extra: ["familyShareble": .bool(true)])])
        try expectOne(
            readConfiguration(text), StoreKitRuleID.unknownKey, .warning, at: "\"familyShareble\"", in: text,
            mentions: ["unknown key 'familyShareble' in a product (`products[0].familyShareble`)", "`export --base` keeps it", "did you mean 'familyShareable'?"])
    }

    @Test func knownKeysTheCatalogHasNoPlaceForAreNotesNamingTheirPathAndBase() throws {
        let text = Sample.file(extra: ["appPolicies": .object(["eula": .string("")])])
        let result = readConfiguration(text)
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"identifier\"", in: text, mentions: ["`identifier` is not imported", "`export --base` keeps it"])
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"settings\"", in: text, mentions: ["`settings` is not imported"])
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"appPolicies\"", in: text, mentions: ["`appPolicies` is not imported"])
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"internalID\"", in: text, mentions: ["`products[].internalID` is not imported"])
    }

    @Test func manyOfOneKindOfKeyAreOneNoteWithEveryPlaceNoted() throws {
        let text = Sample.file(products: [Sample.product("a"), Sample.product("b"), Sample.product("c")])
        let notes = readConfiguration(text).diagnostics.filter { $0.message.contains("`products[].internalID`") }
        try #require(notes.count == 1)
        #expect(notes[0].message.contains("3 places"))
        #expect(notes[0].notes.map(\.message) == ["`products[0].internalID`", "`products[1].internalID`", "`products[2].internalID`"])
        #expect(notes[0].notes.map(\.location.line) == [3, 4, 5].map { position(of: "\"internalID\"", in: text, occurrence: $0 - 2)?.line ?? 0 })
    }

    @Test func aSubscriptionOutsideAGroupIsAnError() throws {
        let text = Sample.file(products: [Sample.product("pro", type: "RecurringSubscription")])
        try expectOne(readConfiguration(text), StoreKitRuleID.invalidValue, at: "\"RecurringSubscription\"", in: text, mentions: ["lists under `subscriptions` of a subscription group, not under `products`"])
    }

    @Test func aSubscriptionGroupIDThatIsNotItsGroupsIsAWarning() throws {
        let text = Sample.file(groups: [Sample.group("G", id: "G1", subscriptions: [Sample.subscription("s", group: "OTHER")])])
        let result = readConfiguration(text)
        try expectOne(result, StoreKitRuleID.groupMismatch, .warning, at: "\"OTHER\"", in: text, mentions: ["is 'OTHER'", "whose id is 'G1'"])
        #expect(!result.hasErrors)
    }

    @Test func version1HasNoIdentifierNoNonRenewingListAndNoCodeOffers() throws {
        // The 1.0 shape: no identifier, no nonRenewingSubscriptions, a free trial without numberOfPeriods.
        var subscription = Sample.subscription("monthly")
        subscription["codeOffers"] = nil
        subscription["winbackOffers"] = nil
        subscription["introductoryOffer"] = .object(["internalID": .string("B0000001"), "paymentMode": .string("free"), "subscriptionPeriod": .string("P1W")])
        let text = StoreKitWriter().write(.object([
            "products": .array([Sample.product("pro")]), "settings": .object([]),
            "subscriptionGroups": .array([Sample.group("Premium", subscriptions: [subscription])]), "version": Sample.version(1, 0),
        ]))
        let result = readConfiguration(text)
        #expect(!result.hasErrors && !result.diagnostics.contains { $0.severity == .warning }, "\(describe(result.diagnostics))")
        let offer = try #require(result.configuration?.groups.first?.subscriptions.first?.subscription?.introductoryOffer)
        #expect(offer.paymentMode.value == .free && offer.subscriptionPeriod.value == "P1W" && offer.numberOfPeriods == nil)
    }

    @Test func version5sIntroductoryOffersListIsKeptAndItsOtherOffersReported() throws {
        let first = StoreKitValue.object([
            "billingPlanType": .string("BILLED_UPFRONT"), "internalID": .string("I1"), "numberOfPeriods": .integer(1),
            "paymentMode": .string("free"), "subscriptionPeriod": .string("P1M"),
        ])
        var second = first
        second["billingPlanType"] = .string("MONTHLY")
        second["internalID"] = .string("I2")
        let text = Sample.file(
            groups: [Sample.group("G", subscriptions: [Sample.subscription("s", extra: ["introductoryOffer": first, "introductoryOffers": .array([first, second])])])],
            version: Sample.version(5, 0))
        let result = readConfiguration(text)
        #expect(!result.hasErrors)
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"introductoryOffers\"", in: text, mentions: ["introductory offers by billing plan"])
        let others = result.diagnostics.filter { $0.message.contains("another introductory offer (billing plan MONTHLY)") }
        #expect(others.count == 1)
        #expect(result.configuration?.groups.first?.subscriptions.first?.subscription?.introductoryOffer?.paymentMode.value == .free)
    }

    @Test func groupLocalizationsAreReadAndTheirCustomAppNameReported() throws {
        let localization = StoreKitValue.object(["description": .string("My App"), "displayName": .string("Prime"), "locale": .string("fr_FR")])
        let text = Sample.file(groups: [Sample.group("Premium", subscriptions: [Sample.subscription("s")], localizations: [localization])])
        let result = readConfiguration(text)
        let group = try #require(result.configuration?.groups.first)
        #expect(group.localizations.map(\.catalogLocale) == ["fr-FR"])
        #expect(group.localizations.map(\.displayName.value) == ["Prime"])
        try expectOne(result, StoreKitRuleID.notImported, .note, at: "\"description\" : \"My App\"", in: text, mentions: ["custom app name"])
    }
}
