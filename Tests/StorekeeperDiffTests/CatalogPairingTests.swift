import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import Testing

/// Directories are compared catalog by catalog, paired by their `catalog` name.
@Suite struct CatalogPairingTests {
    static func catalog(_ name: String, price: String = "2.99", app: String? = nil, product: String? = nil) -> String {
        """
        catalog: \(name)
        app: {bundle-id: com.example.\(app ?? name)}
        products:
          - id: com.example.\(product ?? name).pro
            type: non-consumable
            reference-name: Pro
            price: "\(price)"
            localizations: {en-US: {title: Pro, description: Everything}}
            delivery: built-in
            persistence: receipt
            restore: receipt-refresh

        """
    }

    static func load(_ files: [String: String]) throws -> [Catalog] {
        let reader = InMemorySourceReader(files)
        return try files.keys.sorted().map { try DiffFixtures.loaded(CatalogLoader(reader: reader).load($0)) }
    }

    @Test func catalogsArePairedByNameWhateverTheirFiles() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha"), "old/b.yaml": Self.catalog("beta")])
        // Files renamed and swapped: the names still pair them.
        let new = try Self.load(["new/x.yaml": Self.catalog("beta", price: "3.99"), "new/y.yaml": Self.catalog("alpha")])
        let found = CatalogDiff().compare(old: old, new: new)
        #expect(found.map(\.rule) == ["diff-price"])
        #expect(found.first?.location.file == "new/x.yaml")
        #expect(found.first?.notes.first?.location.file == "old/b.yaml")
    }

    @Test func aCatalogMissingFromNewIsReportedAndANewOneIsFine() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha"), "old/b.yaml": Self.catalog("beta")])
        let new = try Self.load(["new/a.yaml": Self.catalog("alpha"), "new/c.yaml": Self.catalog("gamma")])
        let found = CatalogDiff().compare(old: old, new: new)
        #expect(found.map(\.rule) == [CatalogPairing.removedID])
        #expect(found.first?.severity == .error)
        #expect(found.first?.location == SourceLocation(file: "old/b.yaml", line: 1, column: 10))
        #expect(found.first?.message.hasPrefix("catalog 'beta' is gone from the new directory, with its 1 product") == true)
    }

    @Test func aNameTwiceInOneSetIsAmbiguous() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha")])
        let new = try Self.load(["new/a.yaml": Self.catalog("alpha"), "new/b.yaml": Self.catalog("alpha")])
        let pairing = CatalogPairing(old: old, new: new)
        #expect(pairing.ambiguous.map(\.name) == ["alpha"])
        #expect(pairing.ambiguous.first?.files == ["new/a.yaml", "new/b.yaml"])
    }

    @Test func aRenamedCatalogIsPairedByItsBundleIDNotedAndCompared() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha", app: "game", product: "game")])
        let new = try Self.load(["new/a.yaml": Self.catalog("rocket", price: "3.99", app: "game", product: "game")])
        let found = CatalogDiff().compare(old: old, new: new)
        // Not removed: paired, noted at NEW's name with a note at OLD's, and its price change found.
        #expect(found.map(\.rule) == [CatalogPairing.renamedID, "diff-price"])
        let renamed = try #require(found.first)
        #expect(renamed.severity == .note)
        #expect(renamed.location == SourceLocation(file: "new/a.yaml", line: 1, column: 10))
        #expect(renamed.notes.map(\.location) == [SourceLocation(file: "old/a.yaml", line: 1, column: 10)])
        #expect(renamed.message.hasPrefix("catalog 'rocket' was 'alpha' in the old directory: paired by their bundle id 'com.example.game'"))
    }

    @Test func twoUnpairedCatalogsOfOneAppOnASideAreNotGuessed() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha", app: "game"), "old/b.yaml": Self.catalog("beta", app: "game")])
        let new = try Self.load(["new/a.yaml": Self.catalog("gamma", app: "game", product: "alpha")])
        let found = CatalogDiff().compare(old: old, new: new)
        // alpha's product moved into gamma; beta is gone. Neither old catalog is paired with gamma.
        #expect(found.map(\.rule).sorted() == [CatalogPairing.removedID, CatalogPairing.movedID])
        #expect(found.first { $0.rule == CatalogPairing.removedID }?.location.file == "old/b.yaml")
    }

    @Test func aProductMovedToAnotherCatalogOfTheSameAppIsNotedNotRemoved() throws {
        let old = try Self.load([
            "old/a.yaml": Self.catalog("alpha", app: "game") + Self.product("com.example.game.tracks"),
            "old/b.yaml": Self.catalog("beta", app: "game"),
        ])
        let new = try Self.load([
            "new/a.yaml": Self.catalog("alpha", app: "game"),
            "new/b.yaml": Self.catalog("beta", app: "game") + Self.product("com.example.game.tracks"),
        ])
        let found = CatalogDiff().compare(old: old, new: new)
        #expect(found.map(\.rule) == [CatalogPairing.movedID])
        let moved = try #require(found.first)
        #expect(moved.severity == .note)
        #expect(moved.location.file == "new/b.yaml")
        #expect(moved.notes.first?.location.file == "old/a.yaml")
        #expect(moved.message.hasPrefix("'com.example.game.tracks' moved from catalog 'alpha' to catalog 'beta' of the same app"))
    }

    @Test func aProductInACatalogOfAnotherAppIsStillRemoved() throws {
        let old = try Self.load(["old/a.yaml": Self.catalog("alpha") + Self.product("com.example.tracks"), "old/b.yaml": Self.catalog("beta")])
        let new = try Self.load(["new/a.yaml": Self.catalog("alpha"), "new/b.yaml": Self.catalog("beta") + Self.product("com.example.tracks")])
        #expect(CatalogDiff().compare(old: old, new: new).map(\.rule) == ["diff-product-removed"])
    }

    static func product(_ id: String) -> String {
        """
          - id: \(id)
            type: non-consumable
            reference-name: Tracks
            price: "1.99"
            localizations: {en-US: {title: Tracks, description: More tracks}}
            delivery: built-in
            persistence: receipt
            restore: receipt-refresh

        """
    }
}
