import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// Importing: what is filled, what is replaced, what cannot be held, and the YAML itself.
@Suite struct StoreKitImporterTests {
    func importText(_ text: String, importer: StoreKitImporter = StoreKitImporter()) throws -> StoreKitImport {
        let read = readConfiguration(text)
        #expect(!read.hasErrors, "\(describe(read.diagnostics))")
        return importer.importCatalog(from: try #require(read.configuration))
    }

    func diagnostic(_ result: StoreKitImport, _ rule: String, at needle: String, in text: String, occurrence: Int = 1) throws -> Diagnostic {
        let place = try #require(position(of: needle, in: text, occurrence: occurrence))
        let found = result.diagnostics.first { $0.rule == rule && $0.location.line == place.line && $0.location.column == place.column }
        return try #require(found, "no \(rule) at \(place) in\n\(describe(result.diagnostics))")
    }

    @Test func eachTypeGetsTheGuidesDefaultsListedInCommentsAndNotes() throws {
        let text = Sample.file(
            products: [Sample.product("coins", type: "Consumable"), Sample.product("pro")],
            nonRenewing: [Sample.product("pass", type: "NonRenewingSubscription")],
            groups: [Sample.group("Premium", subscriptions: [Sample.subscription("monthly")])])
        let result = try importText(text)
        #expect(!result.hasErrors, "\(describe(result.diagnostics))")
        let catalog = try #require(result.catalog)
        func policy(_ id: String) -> (String, String, String, String?) {
            let product = catalog.product(id: id)
            return (product?.delivery.model.value.rawValue ?? "", product?.persistence.strategy.value.rawValue ?? "",
                    product?.restore.policy.value.rawValue ?? "", product?.persistence.record?.value.rawValue)
        }
        #expect(policy("coins") == ("built-in", "app-state", "none", nil))
        #expect(policy("pro") == ("built-in", "receipt", "receipt-refresh", nil))
        #expect(policy("monthly") == ("built-in", "receipt", "receipt-refresh", nil))
        #expect(policy("pass") == ("built-in", "icloud", "icloud", "receipt"))
        #expect(catalog.product(id: "pass")?.duration?.value == ISOPeriod(years: 1))
        #expect(result.text.contains("    persistence: app-state  # default for a consumable (see the header)"))
        #expect(result.text.contains("    duration: P1Y  # placeholder: not in a StoreKit configuration file"))
        let filled = result.diagnostics.filter { $0.rule == StoreKitRuleID.filled }
        #expect(filled.count == 6, "one per type, the duration and the bundle id: \(describe(filled))")
        #expect(filled.allSatisfy { $0.severity == .note })
        #expect(filled.contains { $0.message.contains("1 non-renewing subscription (pass)") && $0.message.contains("Persisting the Purchase") })
        #expect(filled.contains { $0.message.contains("bundle id") })
    }

    @Test func theCatalogIsNamedFromTheFileAndOptionsWin() throws {
        let text = Sample.file(groups: [
            Sample.group("Pro Plan", id: "G1", subscriptions: [Sample.subscription("a", group: "G1")]),
            Sample.group("pro plan", id: "G2", subscriptions: [Sample.subscription("b", group: "G2")]),
            Sample.group("2024 — Plans", id: "G3", subscriptions: [Sample.subscription("c", group: "G3")]),
        ])
        let read = readConfiguration(text, file: "Some/Dir/My_Store Kit.storekit")
        let configuration = try #require(read.configuration)
        let result = StoreKitImporter().importCatalog(from: configuration)
        #expect(!result.hasErrors, "\(describe(result.diagnostics))")
        let catalog = try #require(result.catalog)
        #expect(catalog.name.value == "my-store-kit")
        #expect(catalog.app.bundleID.value == "com.example.my-store-kit")
        #expect(catalog.groups.map(\.id.value) == ["pro-plan", "pro-plan-2", "group-2024-plans"])
        #expect(catalog.groups.map(\.name.value) == ["Pro Plan", "pro plan", "2024 — Plans"])
        let named = StoreKitImporter(catalogName: "shop", bundleID: "com.acme.shop").importCatalog(from: configuration)
        #expect(named.catalog?.name.value == "shop" && named.catalog?.app.bundleID.value == "com.acme.shop")
        #expect(!named.text.contains("placeholder: not in a StoreKit"))
        #expect(!named.diagnostics.contains { $0.message.contains("bundle id") })
    }

    @Test func textIsQuotedWhereYAMLWouldReadItDifferently() throws {
        let awkward = ["Buy: now #1", "true", "123", " padded", "\"quoted\"", "a, b [c]", "é 🎁 日本", "- dash", "null", "P1M"]
        let products = awkward.enumerated().map { index, title in
            var product = Sample.product("p\(index)")
            product["referenceName"] = .string("ref \(title) \(index)")
            product["localizations"] = .array([.object(["description": .string(title), "displayName": .string(title), "locale": .string("en_US")])])
            return product
        }
        let result = try importText(Sample.file(products: products))
        #expect(!result.hasErrors, "\(describe(result.diagnostics))\n\(result.text)")
        let catalog = try #require(result.catalog)
        #expect(catalog.products.map { $0.localizations.first?.title.value ?? "" } == awkward)
        #expect(catalog.products.map { $0.localizations.first?.description.value ?? "" } == awkward)
        #expect(catalog.products.map(\.referenceName.value) == awkward.enumerated().map { "ref \($1) \($0)" })
    }

    @Test func aPriceTheCatalogCannotHoldIsAnErrorAtDisplayPrice() throws {
        let text = Sample.file(products: [Sample.product("pro", price: "0.999")])
        let result = try importText(text)
        #expect(result.hasErrors)
        let error = try diagnostic(result, "invalid-price", at: "\"0.999\"", in: text)
        #expect(error.location.file == "test.storekit")
        #expect(error.message.contains("'0.999' is not a price") && error.message.contains("(imported as the catalog's `price`)"))
    }

    @Test func aPeriodTheCatalogCannotHoldIsAnErrorAtThePeriod() throws {
        let text = Sample.file(groups: [Sample.group("G", subscriptions: [Sample.subscription("s", period: "P3D")])])
        let result = try importText(text)
        #expect(result.hasErrors)
        let error = try diagnostic(result, "invalid-value", at: "\"P3D\"", in: text)
        #expect(error.message.contains("not a valid subscription period") && error.message.contains("`period`"))
    }

    @Test func aFreeTrialOfSeveralPeriodsCannotBeHeld() throws {
        let offer = StoreKitValue.object(["numberOfPeriods": .integer(3), "paymentMode": .string("free"), "subscriptionPeriod": .string("P1W")])
        let text = Sample.file(groups: [Sample.group("G", subscriptions: [Sample.subscription("s", extra: ["introductoryOffer": offer])])])
        let result = try importText(text)
        let key = try #require(position(of: "\"numberOfPeriods\" : 3", in: text))
        let error = try #require(result.diagnostics.first { $0.rule == StoreKitRuleID.unsupported })
        #expect(error.location.line == key.line && error.location.column == key.column + 20)
        #expect(error.severity == .error && error.message.contains("lasts its period once"))
        #expect(result.hasErrors)
    }

    @Test func offersOfEveryKindAreImportedWithTheirTerms() throws {
        let code = StoreKitValue.object([
            "displayPrice": .string("1.99"), "internalID": .string("C1"), "numberOfPeriods": .integer(3), "offerID": .string("spring.code"),
            "paymentMode": .string("payAsYouGo"), "referenceName": .string("Spring Code"), "subscriptionPeriod": .string("P1M"),
        ])
        let winBack = StoreKitValue.object([
            "internalID": .string("W1"), "isEligible": .bool(true), "offerID": .string("come.back"), "paymentMode": .string("free"),
            "referenceName": .string("Come Back"), "subscriptionPeriod": .string("P2W"),
        ])
        let intro = StoreKitValue.object(["displayPrice": .string("9.99"), "internalID": .string("I1"), "paymentMode": .string("payUpFront"), "subscriptionPeriod": .string("P6M")])
        let text = Sample.file(groups: [Sample.group("G", subscriptions: [Sample.subscription(
            "s", extra: ["codeOffers": .array([code]), "winbackOffers": .array([winBack]), "introductoryOffer": intro])])])
        let result = try importText(text)
        #expect(!result.hasErrors, "\(describe(result.diagnostics))")
        let subscription = try #require(result.catalog?.product(id: "s")?.subscription)
        #expect(subscription.offers.map(\.kind.value) == [.offerCode, .winBack])
        #expect(subscription.offers.map(\.id.value) == ["spring.code", "come.back"])
        #expect(subscription.offers[0].periods?.value == 3 && subscription.offers[0].price?.value.cents == 199)
        #expect(subscription.offers[1].mode.value == .freeTrial && subscription.offers[1].price == nil)
        #expect(subscription.introductoryOffer?.mode.value == .payUpFront && subscription.introductoryOffer?.period.value == ISOPeriod(months: 6))
    }

    @Test func aProductWithNoLocalizationGetsOneFromItsReferenceName() throws {
        var product = Sample.product("pro")
        product["localizations"] = .array([])
        let text = Sample.file(products: [product])
        let result = try importText(text)
        #expect(!result.hasErrors, "\(describe(result.diagnostics))")
        let localization = try #require(result.catalog?.products.first?.localizations.first)
        #expect(localization.locale.value == "en-US" && localization.title.value == "pro" && localization.description.value == "pro")
        let warning = try diagnostic(result, StoreKitRuleID.placeholder, at: "\"localizations\"", in: text)
        #expect(warning.severity == .warning && warning.message.contains("is empty"))
    }

    @Test func aLocaleIsWrittenWithHyphensAndAWrongOneIsReportedAtTheFile() throws {
        var product = Sample.product("pro")
        product["localizations"] = .array([
            .object(["description": .string("d"), "displayName": .string("Pro"), "locale": .string("zh_Hans_CN")]),
            .object(["description": .string("d"), "displayName": .string("Pro"), "locale": .string("EN_us")]),
        ])
        let text = Sample.file(products: [product])
        let result = try importText(text)
        #expect(result.text.contains("      zh-Hans-CN:"))
        let error = try diagnostic(result, "invalid-locale", at: "\"EN_us\"", in: text)
        #expect(error.message.contains("(imported as the catalog's `localizations`)"))
    }

    @Test func aCatalogProblemNoteIsMovedToTheFileToo() throws {
        let intro = StoreKitValue.object(["displayPrice": .string("5.99"), "internalID": .string("I1"), "paymentMode": .string("payAsYouGo"), "numberOfPeriods": .integer(1), "subscriptionPeriod": .string("P1M")])
        let text = Sample.file(groups: [Sample.group("G", subscriptions: [Sample.subscription("s", price: "4.99", extra: ["introductoryOffer": intro])])])
        let result = try importText(text)
        let warning = try diagnostic(result, "offer-price", at: "\"5.99\"", in: text)
        let price = try #require(position(of: "\"4.99\"", in: text))
        #expect(warning.severity == .warning)
        #expect(warning.notes.first?.location.line == price.line && warning.notes.first?.location.column == price.column)
        #expect(warning.notes.first?.location.file == "test.storekit")
    }

    @Test func theHeaderSaysWhereTheCatalogCameFromAndWhatToReview() throws {
        let result = try importText(Sample.file(nonRenewing: [Sample.product("pass", type: "NonRenewingSubscription")]))
        let header = result.text.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: " ")
        for words in ["from test.storekit", "version 4.0", "Review before use", "bundle-id is a placeholder", "guide's defaults", "unlocks", "duration", "export --base test.storekit", "settings"] {
            #expect(header.contains(words), "\(words) in \(header)")
        }
    }
}
