import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperXcodeConfig
import Testing

/// The two real files, through import and export and back: nothing the
/// catalog holds is lost, nothing it cannot hold goes unreported, and
/// `export --base` of an imported file gives the file back.
@Suite struct FixtureRoundTripTests {
    @Test(arguments: StoreKitFixtures.all)
    func theImportReadsBackWithNoErrorAndHoldsEveryProduct(name: String) throws {
        let fixture = try ImportedFixture(name)
        #expect(!fixture.read.hasErrors && !fixture.imported.hasErrors, "\(describe(fixture.diagnostics))")
        // The YAML itself, read back apart from the import.
        let reloaded = CatalogLoader(reader: InMemorySourceReader(["catalog.yaml": fixture.imported.text])).load("catalog.yaml")
        #expect(!reloaded.hasErrors, "\(reloaded.diagnostics)")
        let catalog = try #require(reloaded.catalog)
        let json = try StoreKitFixtures.json(name)
        let original = ProductFacts.fromStoreKit(json)
        #expect(!original.isEmpty)
        let imported = ProductFacts.fromCatalog(catalog)
        #expect(imported.count == original.count)
        for (have, want) in zip(imported, original.map(\.withPlaceholders)) {
            #expect(have == want)
        }
        #expect(GroupFacts.fromCatalog(catalog) == GroupFacts.fromStoreKit(json))
        #expect(catalog.groups.map(\.name.value) == (json["subscriptionGroups"] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "" })
    }

    @Test(arguments: StoreKitFixtures.all)
    func everyEmptyTextIsAPlaceholderReportedWhereItIs(name: String) throws {
        let fixture = try ImportedFixture(name)
        let text = try StoreKitFixtures.text(name)
        var expected = 0
        for product in fixture.configuration.allProducts {
            for localization in product.localizations {
                for field in [localization.displayName, localization.description] where field.value.isEmpty {
                    expected += 1
                    let place = field.location
                    #expect(
                        fixture.imported.diagnostics.contains { $0.rule == StoreKitRuleID.placeholder && $0.severity == .warning && $0.isAt(line: place.line, column: place.column) },
                        "no placeholder warning at \(place)")
                    // The place is the empty string in the file.
                    let line = text.split(separator: "\n", omittingEmptySubsequences: false)[place.line - 1]
                    #expect(line.unicodeScalars.dropFirst(place.column - 1).prefix(2).map(String.init).joined() == "\"\"")
                }
            }
        }
        #expect(fixture.imported.diagnostics.count { $0.rule == StoreKitRuleID.placeholder } == expected)
        #expect(expected > 0, "both fixtures have empty texts")
        #expect(fixture.imported.text.components(separatedBy: "# placeholder: empty in the file").count - 1 == expected)
    }

    @Test(arguments: StoreKitFixtures.all)
    func exportingWithItselfAsBaseGivesTheFileBackByteForByte(name: String) throws {
        let fixture = try ImportedFixture(name)
        let export = StoreKitExporter(base: fixture.configuration).export(fixture.catalog)
        #expect(export.value == fixture.configuration.root.value, "the JSON trees differ")
        #expect(export.text == (try StoreKitFixtures.text(name)), "the texts differ")
        #expect(export.version == fixture.configuration.version.value)
    }

    @Test(arguments: StoreKitFixtures.all)
    func exportingWithoutBaseAndImportingAgainKeepsEverything(name: String) throws {
        let first = try ImportedFixture(name)
        let export = StoreKitExporter().export(first.catalog)
        #expect(export.version == StoreKitVersion(4, 0))
        let read = StoreKitReader().read(Array(export.text.utf8), file: "exported.storekit")
        #expect(!read.hasErrors, "\(describe(read.diagnostics))")
        let configuration = try #require(read.configuration)
        let again = StoreKitImporter(catalogName: first.imported.catalogName).importCatalog(from: configuration)
        #expect(!again.hasErrors, "\(describe(again.diagnostics))")
        let catalog = try #require(again.catalog)
        #expect(ProductFacts.fromCatalog(catalog) == ProductFacts.fromCatalog(first.catalog))
        #expect(GroupFacts.fromCatalog(catalog) == GroupFacts.fromCatalog(first.catalog))
        // The placeholders are now the file's own texts: nothing to report the second time.
        #expect(!again.diagnostics.contains { $0.rule == StoreKitRuleID.placeholder })
        // And against the original file, independently read: equal but for the documented placeholders.
        let original = ProductFacts.fromStoreKit(try StoreKitFixtures.json(name)).map(\.withPlaceholders)
        #expect(ProductFacts.fromCatalog(catalog) == original)
    }

    /// The keys whose values the catalog holds, by pattern: every other key of
    /// a file must be reported (or sit inside one that is).
    static let carried: Set<String> = [
        "version", "version.major", "version.minor", "products", "nonRenewingSubscriptions", "subscriptionGroups",
        "subscriptionGroups[].name", "subscriptionGroups[].localizations", "subscriptionGroups[].localizations[].locale",
        "subscriptionGroups[].localizations[].displayName", "subscriptionGroups[].subscriptions",
    ]
    static let productKeys: Set<String> = ["productID", "referenceName", "type", "displayPrice", "localizations", "localizations[].locale", "localizations[].displayName", "localizations[].description"]
    static let subscriptionKeys: Set<String> = [
        "groupNumber", "recurringSubscriptionPeriod", "subscriptionGroupID", "familyShareable", "introductoryOffer", "adHocOffers", "codeOffers", "winbackOffers",
    ]
    static let offerKeys: Set<String> = ["offerID", "referenceName", "paymentMode", "subscriptionPeriod", "numberOfPeriods", "displayPrice"]

    /// Whether the catalog holds the member at `pattern` (indices removed) of an object of `type`.
    static func isCarried(_ pattern: String, productType: String?) -> Bool {
        if carried.contains(pattern) { return true }
        for prefix in ["products[].", "nonRenewingSubscriptions[].", "subscriptionGroups[].subscriptions[]."] where pattern.hasPrefix(prefix) {
            let rest = String(pattern.dropFirst(prefix.count))
            if productKeys.contains(rest) { return true }
            if rest == "familyShareable" { return productType == "NonConsumable" || productType == "RecurringSubscription" }
            guard prefix.hasPrefix("subscriptionGroups") else { return false }
            if subscriptionKeys.contains(rest) { return true }
            for list in ["introductoryOffer.", "adHocOffers[].", "codeOffers[].", "winbackOffers[]."] where rest.hasPrefix(list) {
                return offerKeys.contains(String(rest.dropFirst(list.count)))
            }
        }
        return false
    }

    @Test(arguments: StoreKitFixtures.all)
    func everyKeyIsCarriedOrReportedAndExportWithBaseKeepsItsValue(name: String) throws {
        let fixture = try ImportedFixture(name)
        let export = StoreKitExporter(base: fixture.configuration).export(fixture.catalog).value
        var checked = 0, reported = 0
        func walk(_ node: StoreKitNode, path: String, pattern: String, productType: String?, insideReported: Bool) {
            if let members = node.members {
                let type = node["type"].flatMap { member -> String? in
                    if case .string(let text) = member.value.content { return text }
                    return nil
                } ?? productType
                for member in members {
                    let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                    let memberPattern = pattern.isEmpty ? member.key : "\(pattern).\(member.key)"
                    checked += 1
                    // Whatever happens to it, `export --base` writes it back as it was.
                    #expect(Self.value(at: memberPath, in: export) == member.value.value, "\(memberPath) changed")
                    var isReported = insideReported
                    if !insideReported, !Self.isCarried(memberPattern, productType: type) {
                        let place = member.keyRange.start
                        isReported = fixture.diagnostics.contains {
                            [StoreKitRuleID.notImported, StoreKitRuleID.unknownKey].contains($0.rule) && $0.isAt(line: place.line, column: place.column)
                        }
                        #expect(isReported, "\(memberPath) (\(place)) is neither carried nor reported")
                        if isReported { reported += 1 }
                    }
                    walk(member.value, path: memberPath, pattern: memberPattern, productType: type, insideReported: isReported)
                }
            } else if let elements = node.elements {
                for (index, element) in elements.enumerated() {
                    walk(element, path: "\(path)[\(index)]", pattern: "\(pattern)[]", productType: productType, insideReported: insideReported)
                }
            }
        }
        walk(fixture.configuration.root, path: "", pattern: "", productType: nil, insideReported: false)
        #expect(checked > 100 && reported > 5, "\(checked) keys, \(reported) reported")
    }

    /// The value at `a.b[2].c`.
    static func value(at path: String, in root: StoreKitValue) -> StoreKitValue? {
        var current: StoreKitValue? = root
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "[") {
                indices.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) ?? -1, at: 0)
                name = name[..<open]
            }
            current = current?[String(name)]
            for index in indices {
                guard let elements = current?.elements, elements.indices.contains(index) else { return nil }
                current = elements[index]
            }
        }
        return current
    }
}
