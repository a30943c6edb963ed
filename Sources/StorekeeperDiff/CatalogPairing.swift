import StorekeeperCatalog
import StorekeeperDiagnostics

/// Two sets of catalogs matched by their `catalog` name, as `storekeeper diff`
/// matches two directories.
public struct CatalogPairing: Sendable {
    /// Catalogs in both sets: (old, new).
    public let pairs: [(old: Catalog, new: Catalog)]
    /// Catalogs of the old set that the new one does not have.
    public let removed: [Catalog]
    /// Names that more than one catalog of a set uses, with the files (old set first):
    /// such catalogs cannot be paired by name.
    public let ambiguous: [(name: String, files: [String])]

    /// Pairs two sets of catalogs by name.
    public init(old: [Catalog], new: [Catalog]) {
        var ambiguous: [(name: String, files: [String])] = []
        for set in [old, new] {
            var byName: [String: [String]] = [:]
            for catalog in set { byName[catalog.name.value, default: []].append(catalog.name.location.file) }
            for (name, files) in byName.sorted(by: { $0.key < $1.key }) where files.count > 1 {
                ambiguous.append((name, files))
            }
        }
        var newByName: [String: Catalog] = [:]
        for catalog in new where newByName[catalog.name.value] == nil { newByName[catalog.name.value] = catalog }
        var pairs: [(old: Catalog, new: Catalog)] = []
        var removed: [Catalog] = []
        for catalog in old {
            if let match = newByName[catalog.name.value] {
                pairs.append((catalog, match))
            } else {
                removed.append(catalog)
            }
        }
        self.pairs = pairs
        self.removed = removed
        self.ambiguous = ambiguous
    }

    /// The id of a catalog removed from the new set.
    public static let removedID = "diff-catalog-removed"

    /// A catalog removed from the new set, described for SARIF.
    public static let removedMetadata = RuleMetadata(
        id: removedID,
        summary: "Every catalog of the old directory is still in the new one (catalogs are matched by their `catalog` name).",
        help: """
            A catalog that is gone takes every product in it away from the people who bought them: their \
            receipts and records still name the products, but the app no longer knows them. A renamed \
            catalog (a new `catalog:` name) reads as removed too, since catalogs are matched by name. \
            Keep the catalog, under its name. See docs/diff.md#diff-catalog-removed.
            """,
        defaultSeverity: .error)

    /// The diagnostic for a catalog of the old set that the new set does not have.
    public static func removedDiagnostic(_ catalog: Catalog) -> Diagnostic {
        Diagnostic(
            .error, rule: removedID,
            "catalog '\(catalog.name.value)' is gone from the new directory, with its \(catalog.products.count) product\(catalog.products.count == 1 ? "" : "s"): people who bought them still own them; keep the catalog under its name (catalogs are matched by their `catalog` name) (docs/diff.md#diff-catalog-removed)",
            at: catalog.name.range)
    }
}
