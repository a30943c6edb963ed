public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// Two sets of catalogs matched as `storekeeper diff` matches two directories:
/// by their `catalog` name, then, for catalogs left without a match, by their
/// app's bundle id when exactly one old and one new catalog share it (a
/// renamed catalog: nothing in the queue is keyed by the catalog's name).
public struct CatalogPairing: Sendable {
    /// Catalogs in both sets: (old, new), by name and then by bundle id.
    public let pairs: [(old: Catalog, new: Catalog)]
    /// The pairs made by bundle id: catalogs renamed.
    public let renamed: [(old: Catalog, new: Catalog)]
    /// Catalogs of the old set that the new one does not have, under any name.
    public let removed: [Catalog]
    /// Products that left their catalog for another catalog of the same app in the new set.
    public let moved: [MovedProduct]
    /// Names that more than one catalog of a set uses, with the files (old set first):
    /// such catalogs cannot be paired by name.
    public let ambiguous: [(name: String, files: [String])]

    /// A product that left its catalog for another catalog with the same bundle id.
    public struct MovedProduct: Sendable {
        /// The product in its old catalog.
        public let old: Product
        /// The product in its new catalog.
        public let new: Product
        /// The catalog it was in.
        public let from: Catalog
        /// The catalog it is in now.
        public let to: Catalog
    }

    /// Pairs two sets of catalogs: by name, then by bundle id.
    public init(old: [Catalog], new: [Catalog]) {
        var ambiguous: [(name: String, files: [String])] = []
        for set in [old, new] {
            var byName: [String: [String]] = [:]
            for catalog in set { byName[catalog.name.value, default: []].append(catalog.name.location.file) }
            for (name, files) in byName.sorted(by: { $0.key < $1.key }) where files.count > 1 {
                ambiguous.append((name, files))
            }
        }
        var newByName: [String: Int] = [:]
        for (index, catalog) in new.enumerated() where newByName[catalog.name.value] == nil { newByName[catalog.name.value] = index }
        var pairs: [(old: Catalog, new: Catalog)] = []
        var unpaired: [Catalog] = []
        var matched = Set<Int>()
        for catalog in old {
            if let index = newByName[catalog.name.value] {
                pairs.append((catalog, new[index]))
                matched.insert(index)
            } else {
                unpaired.append(catalog)
            }
        }
        // What names could not pair, one bundle id can: but only one to one, never a guess.
        let oldNames = Set(old.map(\.name.value))
        let unmatchedNew = new.indices.filter { !matched.contains($0) && !oldNames.contains(new[$0].name.value) }
        var renamed: [(old: Catalog, new: Catalog)] = []
        var removed: [Catalog] = []
        for catalog in unpaired {
            let bundleID = catalog.app.bundleID.value
            let olds = unpaired.filter { $0.app.bundleID.value == bundleID }
            let news = unmatchedNew.filter { new[$0].app.bundleID.value == bundleID }
            if olds.count == 1, news.count == 1, let index = news.first {
                pairs.append((catalog, new[index]))
                renamed.append((catalog, new[index]))
            } else {
                removed.append(catalog)
            }
        }
        self.pairs = pairs
        self.renamed = renamed
        self.removed = removed
        moved = Self.movedProducts(old: old, new: new, pairs: pairs)
        self.ambiguous = ambiguous
    }

    /// Products missing from their catalog's match (or whose catalog has none) that another
    /// new catalog of the same app has.
    private static func movedProducts(old: [Catalog], new: [Catalog], pairs: [(old: Catalog, new: Catalog)]) -> [MovedProduct] {
        var moved: [MovedProduct] = []
        for catalog in old {
            let match = pairs.first { $0.old.name.location == catalog.name.location }?.new
            let stayed = Set(match?.products.map(\.id.value) ?? [])
            for product in catalog.products where !stayed.contains(product.id.value) {
                for other in new where other.app.bundleID.value == catalog.app.bundleID.value
                    && other.name.location != match?.name.location {
                    if let copy = other.products.first(where: { $0.id.value == product.id.value }) {
                        moved.append(MovedProduct(old: product, new: copy, from: catalog, to: other))
                        break
                    }
                }
            }
        }
        return moved
    }

    /// The id of a catalog removed from the new set.
    public static let removedID = "diff-catalog-removed"
    /// The id of a catalog paired by its bundle id (renamed).
    public static let renamedID = "diff-catalog-renamed"
    /// The id of a product moved to another catalog of the same app.
    public static let movedID = "diff-product-moved"

    /// A catalog removed from the new set, described for SARIF.
    public static let removedMetadata = RuleMetadata(
        id: removedID,
        summary: "Every catalog of the old directory is still in the new one (matched by `catalog` name, then by bundle id).",
        help: """
            A catalog that is gone takes every product in it away from the people who bought them: their \
            receipts and records still name the products, but the app no longer knows them. Catalogs are \
            matched by name, and a catalog left unmatched by its app's bundle id when exactly one old and \
            one new catalog share it. Keep the catalog. See docs/diff.md#diff-catalog-removed.
            """,
        defaultSeverity: .error)

    /// A catalog paired by bundle id, described for SARIF.
    public static let renamedMetadata = RuleMetadata(
        id: renamedID,
        summary: "A catalog whose name changed is paired with its old self by its bundle id, and compared.",
        help: """
            Nothing people own is keyed by the catalog's name, so a renamed catalog takes nothing; it is \
            noted so that the pairing can be checked. See docs/diff.md#diff-catalog-renamed.
            """,
        defaultSeverity: .note)

    /// A product moved between catalogs of one app, described for SARIF.
    public static let movedMetadata = RuleMetadata(
        id: movedID,
        summary: "A product that moved to another catalog of the same app is noted, not reported as removed.",
        help: """
            Products are found by id whichever catalog of the app lists them, so a product moved between \
            catalogs with the same bundle id is still known. Its changes are not compared across catalogs. \
            See docs/diff.md#diff-product-moved.
            """,
        defaultSeverity: .note)

    /// The diagnostic for a catalog of the old set that the new set does not have
    /// (its products that moved to another catalog of the same app aside).
    public static func removedDiagnostic(_ catalog: Catalog, moved: Set<String> = []) -> Diagnostic? {
        let count = catalog.products.filter { !moved.contains($0.id.value) }.count
        guard count > 0 || catalog.products.isEmpty else { return nil }
        return Diagnostic(
            .error, rule: removedID,
            "catalog '\(catalog.name.value)' is gone from the new directory, with its \(count) product\(count == 1 ? "" : "s"): people who bought them still own them; keep the catalog (catalogs are matched by their `catalog` name, then by bundle id when one old and one new catalog share it) (docs/diff.md#diff-catalog-removed)",
            at: catalog.name.range)
    }

    /// The note for a catalog paired by bundle id.
    public static func renamedDiagnostic(old: Catalog, new: Catalog) -> Diagnostic {
        Diagnostic(
            .note, rule: renamedID,
            "catalog '\(new.name.value)' was '\(old.name.value)' in the old directory: paired by their bundle id '\(new.app.bundleID.value)', the only old and new catalogs with it that no name matches, and compared (docs/diff.md#diff-catalog-renamed)",
            at: new.name.range,
            notes: [Diagnostic.Note("the old catalog's name", at: old.name.location)])
    }

    /// The note for a product moved to another catalog of the same app.
    public static func movedDiagnostic(_ moved: MovedProduct) -> Diagnostic {
        Diagnostic(
            .note, rule: movedID,
            "'\(moved.new.id.value)' moved from catalog '\(moved.from.name.value)' to catalog '\(moved.to.name.value)' of the same app ('\(moved.to.app.bundleID.value)'): the app still finds it by its id, so it is not removed; its changes are not compared across catalogs, check them by hand (docs/diff.md#diff-product-moved)",
            at: moved.new.id.range,
            notes: [Diagnostic.Note("it was in catalog '\(moved.from.name.value)' here", at: moved.old.id.location)])
    }
}
