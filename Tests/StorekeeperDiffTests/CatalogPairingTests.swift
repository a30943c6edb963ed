import StorekeeperCatalog
import StorekeeperDiagnostics
import StorekeeperDiff
import Testing

/// Directories are compared catalog by catalog, paired by their `catalog` name.
@Suite struct CatalogPairingTests {
    static func catalog(_ name: String, price: String = "2.99") -> String {
        """
        catalog: \(name)
        app: {bundle-id: com.example.\(name)}
        products:
          - id: com.example.\(name).pro
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
}
