import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperXcodeConfig
import Testing

/// Exporting: a new file, and a base file of which only what the catalog holds changes.
@Suite struct StoreKitExporterTests {
    /// A catalog from YAML text, which must load cleanly.
    func catalog(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Catalog {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["catalog.yaml": text])).load("catalog.yaml")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)", sourceLocation: sourceLocation)
        return try #require(loaded.catalog, sourceLocation: sourceLocation)
    }

    /// The flutter fixture's import, with `edit` applied to its YAML.
    func editedFlutter(_ edit: (String) -> String) throws -> (fixture: ImportedFixture, catalog: Catalog) {
        let fixture = try ImportedFixture(StoreKitFixtures.flutter)
        let edited = edit(fixture.imported.text)
        #expect(edited != fixture.imported.text, "the edit changed nothing")
        return (fixture, try catalog(edited))
    }

    static func isInternalID(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.count == 8 && text.allSatisfy { $0.isHexDigit && !$0.isLowercase }
    }

    @Test func aNewFileIsVersion4WithXcodesDefaultsAndStableIDs() throws {
        let fixture = try ImportedFixture(StoreKitFixtures.revenueCat)
        let first = StoreKitExporter().export(fixture.catalog)
        let second = StoreKitExporter().export(fixture.catalog)
        #expect(first.text == second.text, "the same catalog gives the same file")
        #expect(first.value["version"] == .object(["major": .integer(4), "minor": .integer(0)]))
        #expect(first.value["settings"]?["_storefront"] == .string("USA") && first.value["settings"]?["_storeKitErrors"] == .array([]))
        #expect(first.value["appPolicies"]?["eula"] == .string(""))
        #expect(Self.isInternalID(first.value["identifier"]?.string))
        var ids: [String] = []
        func collect(_ value: StoreKitValue) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "internalID" || member.key == "id" { ids.append(member.value.string ?? "") }
                    collect(member.value)
                }
            case .array(let elements): elements.forEach(collect)
            default: break
            }
        }
        collect(first.value)
        #expect(ids.count == 16, "7 products, 3 introductory offers, 4 promotional offers and 2 groups: \(ids)")
        #expect(ids.allSatisfy(Self.isInternalID) && Set(ids).count == ids.count)
        // Subscriptions name their group's id.
        for group in first.value["subscriptionGroups"]?.elements ?? [] {
            for subscription in group["subscriptions"]?.elements ?? [] {
                #expect(subscription["subscriptionGroupID"] == group["id"])
                #expect(subscription["winbackOffers"] != nil && subscription["codeOffers"] != nil && subscription["introductoryOffer"] != nil)
            }
        }
        let notes = first.diagnostics
        #expect(notes.allSatisfy { $0.severity == .note && $0.rule == StoreKitRuleID.export })
        #expect(notes.contains { $0.message.contains("a new StoreKit configuration file (version 4.0)") && $0.message.contains("--base") })
        #expect(notes.contains { $0.message.contains("delivery, persistence, restore") && $0.message.contains("the duration of non-renewing subscriptions") })
        // It reads back with nothing to warn about.
        let read = StoreKitReader().read(Array(first.text.utf8), file: "new.storekit")
        #expect(!read.hasErrors && !read.diagnostics.contains { $0.severity == .warning }, "\(describe(read.diagnostics))")
    }

    @Test func withABaseOnlyWhatTheCatalogChangedChanges() throws {
        let (fixture, edited) = try editedFlutter { yaml in
            var text = yaml.replacingOccurrences(of: "price: \"10.99\"", with: "price: \"11.99\"")
            // Remove consumable_discounted (its eleven lines), add a new consumable at the end.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let start = lines.firstIndex(of: "  - id: consumable_discounted") { lines.removeSubrange(start..<(start + 11)) }
            text = lines.joined(separator: "\n")
            return text + """
                  - id: gems
                    type: consumable
                    reference-name: Gems
                    price: "1.99"
                    localizations: {fr-FR: {title: Gemmes, description: Un sac de gemmes}}
                    delivery: built-in
                    persistence: app-state
                    restore: none

                """
        }
        let export = StoreKitExporter(base: fixture.configuration).export(edited)
        var expected = fixture.configuration.root.value
        var products = expected["products"]?.elements ?? []
        products[1]["displayPrice"] = .string("11.99")
        products.remove(at: 2)
        let gems = try #require(export.value["products"]?.elements?.last)
        #expect(gems["productID"] == .string("gems") && gems["type"] == .string("Consumable") && gems["displayPrice"] == .string("1.99"))
        #expect(gems["localizations"] == .array([.object(["description": .string("Un sac de gemmes"), "displayName": .string("Gemmes"), "locale": .string("fr_FR")])]))
        #expect(Self.isInternalID(gems["internalID"]?.string) && gems["familyShareable"] == .bool(false))
        products.append(gems)
        expected["products"] = .array(products)
        #expect(export.value == expected)
        #expect(export.diagnostics.contains { $0.message.contains("`products[2]` (consumable_discounted) is not in the catalog") && $0.location.file == StoreKitFixtures.flutter })
        #expect(export.diagnostics.contains { $0.message.contains("gems is not in the base file") && $0.location.file == "catalog.yaml" })
    }

    @Test func aPlaceholderGoesBackEmptyOnlyWhileTheCatalogKeepsIt() throws {
        let (fixture, edited) = try editedFlutter {
            $0.replacingOccurrences(of: "title: subscription_discounted  # placeholder: empty in the file", with: "title: Discounted")
        }
        let export = StoreKitExporter(base: fixture.configuration).export(edited)
        let localization = export.value["subscriptionGroups"]?.elements?[2]["subscriptions"]?.elements?[0]["localizations"]?.elements?[0]
        // The title was written; the description still holds what the import put there, the title as it was, so it goes back empty.
        #expect(localization?["displayName"] == .string("Discounted"))
        #expect(localization?["description"] == .string("subscription_discounted"), "the description placeholder is the old title, no longer the catalog's title")
    }

    @Test func aRemovedOfferIsLeftOutAndTheRestKeepTheirIDs() throws {
        let (fixture, edited) = try editedFlutter { yaml in
            var lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let start = lines.firstIndex(of: "      - id: subscription_silver_winback_offer") { lines.removeSubrange(start..<(start + 7)) }
            return lines.joined(separator: "\n")
        }
        let export = StoreKitExporter(base: fixture.configuration).export(edited)
        let silver = export.value["subscriptionGroups"]?.elements?[0]["subscriptions"]?.elements?[0]
        #expect(silver?["winbackOffers"] == .array([]))
        #expect(silver?["adHocOffers"]?.elements?.first?["internalID"] == .string("8253DF07"))
        #expect(export.diagnostics.contains { $0.message.contains("the offer subscription_silver_winback_offer of subscription_silver is not in the catalog") })
    }

    @Test func aRemovedGroupNamesEachOfItsSubscriptionsTheExportLeavesOut() throws {
        let (fixture, edited) = try editedFlutter { yaml in
            var lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let group = lines.firstIndex(of: "  gold-subscription:") { lines.removeSubrange(group...(group + 1)) }
            if let start = lines.firstIndex(of: "  - id: subscription_gold") {
                let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  - id: ") || (!$0.hasPrefix(" ") && !$0.isEmpty) } ?? lines.endIndex
                lines.removeSubrange(start..<end)
            }
            return lines.joined(separator: "\n")
        }
        let export = StoreKitExporter(base: fixture.configuration).export(edited)
        #expect(export.value["subscriptionGroups"]?.elements?.contains { $0["name"] == .string("Gold Subscription") } == false)
        let notes = export.diagnostics.filter { $0.severity == .note }.map(\.message)
        #expect(notes.contains { $0.contains("the group `subscriptionGroups[1]` (Gold Subscription) is not in the catalog") }, "\(notes)")
        #expect(notes.contains { $0.contains("the subscription subscription_gold of the group `subscriptionGroups[1]`") }, "\(notes)")
    }

    @Test func aGroupRenamedInTheCatalogKeepsItsIDByItsKey() throws {
        let (fixture, edited) = try editedFlutter { $0.replacingOccurrences(of: "name: Gold Subscription", with: "name: Gold") }
        let export = StoreKitExporter(base: fixture.configuration).export(edited)
        let group = try #require(export.value["subscriptionGroups"]?.elements?[1])
        #expect(group["name"] == .string("Gold") && group["id"] == .string("5D664105"))
        #expect(group["subscriptions"]?.elements?.first?["subscriptionGroupID"] == .string("5D664105"))
    }

    @Test func aBaseVersionWithoutWinBackOffersIsRaisedWhenTheCatalogHasOne() throws {
        var subscription = Sample.subscription("monthly")
        subscription["winbackOffers"] = nil
        let base = readConfiguration(Sample.file(groups: [Sample.group("Premium", subscriptions: [subscription])], version: Sample.version(3, 0)))
        let configuration = try #require(base.configuration)
        var imported = StoreKitImporter().importCatalog(from: configuration).text
        imported += ""
        let withOffer = imported.replacingOccurrences(of: "    localizations:\n      en-US:\n        title: Pro\n        description: Every feature\n    delivery: built-in  # default for an auto-renewable",
                                                      with: "    offers:\n      - {id: back, kind: win-back, reference-name: Back, mode: free-trial, period: P1W}\n    localizations:\n      en-US:\n        title: Pro\n        description: Every feature\n    delivery: built-in  # default for an auto-renewable")
        let export = StoreKitExporter(base: configuration).export(try catalog(withOffer))
        #expect(export.version == StoreKitVersion(4, 0))
        #expect(export.value["version"] == Sample.version(4, 0))
        let written = export.value["subscriptionGroups"]?.elements?[0]["subscriptions"]?.elements?[0]["winbackOffers"]?.elements?.first
        #expect(written?["offerID"] == .string("back") && written?["isEligible"] == .bool(true) && written?["paymentMode"] == .string("free"))
        #expect(export.diagnostics.contains { $0.message.contains("version 3.0, which has no win-back offers") })
    }

    @Test func aNewSubscriptionInAVersion5BaseGetsItsBillingPlanAndOfferList() throws {
        let fixture = try ImportedFixture(StoreKitFixtures.revenueCat)
        let added = fixture.imported.text + """
              - id: com.example.weekly
                type: auto-renewable-subscription
                reference-name: weekly
                price: "0.99"
                group: subscription_group_2
                level: 2
                period: P1W
                introductory-offer: {mode: free-trial, period: P3D}
                localizations: {en-US: {title: Weekly, description: Every week}}
                delivery: built-in
                persistence: receipt
                restore: receipt-refresh

            """
        let export = StoreKitExporter(base: fixture.configuration).export(try catalog(added))
        let weekly = try #require(export.value["subscriptionGroups"]?.elements?[1]["subscriptions"]?.elements?.last)
        #expect(weekly["productID"] == .string("com.example.weekly") && weekly["groupNumber"] == .integer(2))
        let plan = try #require(weekly["billingPlans"]?.elements?.first)
        #expect(plan["billingPlanType"] == .string("BILLED_UPFRONT") && plan["displayPrice"] == .string("0.99") && plan["isEnabled"] == .bool(true))
        let intro = try #require(weekly["introductoryOffer"])
        #expect(intro["billingPlanType"] == .string("BILLED_UPFRONT") && intro["numberOfPeriods"] == .integer(1) && intro["subscriptionPeriod"] == .string("P3D"))
        #expect(weekly["introductoryOffers"] == .array([intro]))
        #expect(weekly["subscriptionGroupID"] == .string("4BB746BD"))
    }
}
