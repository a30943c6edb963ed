import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import StorekeeperTestSupport

/// Loads catalogs for the tests, from memory or from the package.
enum DiffFixtures {
    /// The package root.
    static let root = PackageRoot.path

    /// Loads `old.yaml` and `new.yaml` (and any other files given) from memory; fails on a load error.
    static func load(old: String, new: String, files: [String: String] = [:]) throws -> (old: Catalog, new: Catalog) {
        var all = files
        all["old.yaml"] = old
        all["new.yaml"] = new
        let reader = InMemorySourceReader(all)
        return (try loaded(CatalogLoader(reader: reader).load("old.yaml")), try loaded(CatalogLoader(reader: reader).load("new.yaml")))
    }

    static func loaded(_ result: CatalogLoadResult) throws -> Catalog {
        guard let catalog = result.catalog, !result.hasErrors else { throw LoadFailure(diagnostics: result.diagnostics) }
        return catalog
    }

    /// Compares two catalog texts with every check.
    static func diff(old: String, new: String, files: [String: String] = [:]) throws -> [Diagnostic] {
        let (old, new) = try load(old: old, new: new, files: files)
        return CatalogDiff().compare(old: old, new: new)
    }

    /// Rocket Racer's catalog, as shipped.
    static func rocketRacer() throws -> String {
        try String(decoding: FileSystemReader().read(root + "/Catalogs/rocket-racer/catalog.yaml", limit: 1 << 20), as: UTF8.self)
    }

    /// The 1-based line of the first line of `text` that contains `needle` (after line `after`).
    static func line(of needle: String, in text: String, after: Int = 0) -> Int? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where index + 1 > after && line.contains(needle) {
            return index + 1
        }
        return nil
    }

    struct LoadFailure: Error, CustomStringConvertible {
        var diagnostics: [Diagnostic]
        var description: String { diagnostics.map { "\($0.location): \($0.message)" }.joined(separator: "\n") }
    }
}

extension String {
    /// The text with the first `old` replaced by `new`, or nil when `old` is not in it
    /// (so a fixture edit that no longer applies fails the test instead of passing unchanged).
    func replacingFirst(_ old: String, with new: String) -> String? {
        guard let range = range(of: old) else { return nil }
        return replacingCharacters(in: range, with: new)
    }
}
