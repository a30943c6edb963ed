import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperDiff
import Testing

/// Where a finding points: the changed value in the new catalog with the old
/// value in a note; a default when the value is inherited; the old catalog for
/// what the new one no longer has.
@Suite struct LocationTests {
    static func catalog(defaults: String = "", product: String) -> String {
        """
        catalog: shop
        app: {bundle-id: com.example.shop}
        features: [pro]
        \(defaults)products:
          - id: com.example.shop.pro
            type: non-consumable
            reference-name: Pro
            price: "2.99"
            localizations: {en-US: {title: Pro, description: Everything}}
            delivery: {model: built-in, unlocks: [pro]}
        \(product)
        """
    }

    @Test func aChangedValueIsLocatedInTheNewCatalogWithTheOldValueInANote() throws {
        let old = Self.catalog(product: "    persistence: user-defaults\n    restore: receipt-refresh")
        let new = Self.catalog(product: "    persistence: icloud\n    restore: receipt-refresh")
        let found = try DiffFixtures.diff(old: old, new: new)
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.rule == "diff-persistence")
        #expect(finding.severity == .error)
        #expect(finding.location == SourceLocation(file: "new.yaml", line: 11, column: 18))
        #expect(finding.range.end == SourceLocation(file: "new.yaml", line: 11, column: 24))
        #expect(finding.message.contains("in iCloud instead of in user defaults"))
        #expect(finding.notes.map(\.location) == [SourceLocation(file: "old.yaml", line: 11, column: 18)])
        #expect(finding.notes.first?.message == "the old catalog had persistence: user-defaults here")
    }

    @Test func aValueInheritedFromDefaultsIsLocatedAtTheDefaultWithANoteAtTheProduct() throws {
        let old = Self.catalog(defaults: "defaults: {persistence: receipt, restore: receipt-refresh}\n", product: "")
        let new = Self.catalog(defaults: "defaults: {persistence: server, restore: receipt-refresh}\nserver: {url: \"https://example.com\"}\n", product: "")
        let found = try DiffFixtures.diff(old: old, new: new)
        let finding = try #require(found.first)
        #expect(found.map(\.rule) == ["diff-persistence"])
        #expect(finding.location == SourceLocation(file: "new.yaml", line: 4, column: 25))
        #expect(finding.notes.map(\.location) == [
            SourceLocation(file: "old.yaml", line: 4, column: 25),
            SourceLocation(file: "new.yaml", line: 7, column: 9),
        ])
        #expect(finding.notes.last?.message == "inherited from `defaults` by com.example.shop.pro here")
    }

    @Test func aRemovedProductIsLocatedInTheOldCatalogAndARenamedIdIsNoted() throws {
        let old = Self.catalog(product: "    persistence: receipt\n    restore: receipt-refresh")
        let new = try #require(old.replacingFirst("id: com.example.shop.pro", with: "id: com.example.shop.pro2"))
        let found = try DiffFixtures.diff(old: old, new: new)
        let finding = try #require(found.first)
        #expect(found.map(\.rule) == ["diff-product-removed"])
        #expect(finding.location == SourceLocation(file: "old.yaml", line: 5, column: 9))
        #expect(finding.message.hasPrefix("'com.example.shop.pro' (non-consumable) is gone from the new catalog"))
        #expect(finding.notes.map(\.location) == [SourceLocation(file: "new.yaml", line: 5, column: 9)])
        #expect(finding.notes.first?.message.contains("a product id cannot be renamed") == true)
    }

    @Test func aChangeOfTypeSaysWhatBreaksAndSilencesWhatTheTypeImplies() throws {
        let old = Self.catalog(product: "    persistence: receipt\n    restore: receipt-refresh")
        let new = try #require(old
            .replacingFirst("type: non-consumable", with: "type: consumable")?
            .replacingFirst("unlocks: [pro]", with: "unlocks: [pro]")?
            .replacingFirst("persistence: receipt\n    restore: receipt-refresh", with: "persistence: app-state\n    restore: none"))
        let found = try DiffFixtures.diff(old: old, new: new)
        // Persistence and restore changed too, but only the type is reported: it already says everything breaks.
        #expect(found.map(\.rule) == ["diff-product-type"])
        #expect(found.first?.message.contains("a consumable is never restored and leaves the receipt once finished") == true)
        #expect(found.first?.location == SourceLocation(file: "new.yaml", line: 6, column: 11))
    }

    @Test func aChangeInAFragmentIsLocatedInTheFragment() throws {
        func catalog(_ fragment: String) -> String {
            "catalog: shop\napp: {bundle-id: com.example.shop}\nfeatures: [pro]\ninclude: [\(fragment)]\n"
        }
        func fragment(price: String) -> String {
            """
            products:
              - id: com.example.shop.pro
                type: non-consumable
                reference-name: Pro
                price: "\(price)"
                localizations: {en-US: {title: Pro, description: Everything}}
                delivery: {model: built-in, unlocks: [pro]}
                persistence: receipt
                restore: receipt-refresh

            """
        }
        let found = try DiffFixtures.diff(
            old: catalog("old-more.yaml"), new: catalog("new-more.yaml"),
            files: ["old-more.yaml": fragment(price: "2.99"), "new-more.yaml": fragment(price: "3.49")])
        #expect(found.map(\.rule) == ["diff-price"])
        #expect(found.first?.location == SourceLocation(file: "new-more.yaml", line: 5, column: 12))
        #expect(found.first?.notes.map(\.location) == [SourceLocation(file: "old-more.yaml", line: 5, column: 12)])
        #expect(found.first?.message.hasPrefix("'com.example.shop.pro' costs 3.49 now, 2.99 before") == true)
    }

    @Test func identicalCatalogsHaveNoFindings() throws {
        let text = try DiffFixtures.rocketRacer()
        #expect(try DiffFixtures.diff(old: text, new: text).isEmpty)
    }
}
