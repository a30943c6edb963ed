public import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// What a catalog change does to people who already bought: compares an old
/// catalog with a new one and reports each change that takes something from
/// them, as diagnostics located in the new catalog (or in the old one, for
/// what the new one no longer has), with the old value in a note.
///
/// ```swift
/// let old = CatalogLoader().load("old/catalog.yaml").catalog
/// let new = CatalogLoader().load("catalog.yaml").catalog
/// if let old, let new {
///     for diagnostic in CatalogDiff().compare(old: old, new: new) { print(diagnostic.message) }
/// }
/// ```
///
/// Both catalogs should have loaded without errors: a product that did not
/// decode is missing from its catalog, and would read as removed.
public struct CatalogDiff: Sendable {
    /// The checks run, `DiffCheck.all` by default.
    public var checks: [DiffCheck]

    /// Creates a diff with the given checks.
    public init(checks: [DiffCheck] = DiffCheck.all) {
        self.checks = checks
    }

    /// What changed between two versions of one catalog, in reading order;
    /// at most ``DiagnosticCap/limit`` are listed (errors first), and one
    /// `too-many-problems` at the new catalog's name counts the rest.
    public func compare(old: Catalog, new: Catalog) -> [Diagnostic] {
        Self.capped(findings(old: old, new: new), at: new.name.location)
    }

    /// Every change between two versions of one catalog, in reading order.
    private func findings(old: Catalog, new: Catalog) -> [Diagnostic] {
        let context = DiffContext(old: old, new: new)
        return Diagnostic.normalized(checks.flatMap { $0.check(context) })
    }

    /// The findings of one comparison within the one cap of every 10,000 limit.
    private static func capped(_ diagnostics: [Diagnostic], at location: SourceLocation) -> [Diagnostic] {
        DiagnosticCap.capped(
            diagnostics, rule: CatalogRuleID.tooManyProblems, source: "the diff", scope: "a comparison", at: location)
    }

    /// What changed between two sets of catalogs, paired by their `catalog`
    /// name, then by bundle id (see `CatalogPairing`): each pair is compared, a
    /// catalog of `old` that `new` does not have is reported
    /// (`diff-catalog-removed`), a pair made by bundle id and a product moved
    /// to another catalog of the same app are noted; a new catalog is fine.
    /// At most ``DiagnosticCap/limit`` are listed, as for one pair.
    public func compare(old: [Catalog], new: [Catalog]) -> [Diagnostic] {
        let pairing = CatalogPairing(old: old, new: new)
        // A moved product is not gone: its removal findings give way to the move's note.
        let movedFrom = Set(pairing.moved.map(\.old.id.location))
        var diagnostics = pairing.removed.compactMap { catalog in
            CatalogPairing.removedDiagnostic(catalog, moved: Set(pairing.moved.filter { $0.from.name.location == catalog.name.location }.map(\.old.id.value)))
        }
        diagnostics += pairing.renamed.map(CatalogPairing.renamedDiagnostic)
        diagnostics += pairing.moved.map(CatalogPairing.movedDiagnostic)
        for (old, new) in pairing.pairs {
            diagnostics += findings(old: old, new: new).filter { finding in
                !(Self.removalIDs.contains(finding.rule) && movedFrom.contains(finding.location))
            }
        }
        let first = new.first?.name.location ?? old.first?.name.location ?? SourceLocation(file: "", line: 1, column: 1)
        return Self.capped(Diagnostic.normalized(diagnostics), at: first)
    }

    /// The checks that report a product as gone.
    private static let removalIDs: Set<String> = [DiffCheck.productRemoved.id, DiffCheck.consumableRemoved.id]

    /// Every id a diff can report, described for formats that list their rules (SARIF).
    public static var metadata: [RuleMetadata] {
        (DiffCheck.all.map(\.metadata) + [CatalogPairing.removedMetadata, CatalogPairing.renamedMetadata, CatalogPairing.movedMetadata]).sorted { $0.id < $1.id }
    }
}
