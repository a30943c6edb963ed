import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTestSupport

/// The CLI's checks of form, in process: `CatalogValidator`, which
/// `storekeeper validate` runs before its policy rules (the policy rules are
/// not the schema's business).
enum CatalogCheck {
    /// The errors of the catalog at `path`, with its fragments.
    static func errors(ofCatalogAt path: String) throws -> [Diagnostic] {
        try CatalogValidator().validate([path]).diagnostics.filter { $0.severity == .error }
    }

    /// The errors of a catalog text.
    static func errors(ofCatalog text: String) throws -> [Diagnostic] {
        try ScratchFolder.with(prefix: "storekeeper-schema") { directory in
            let file = directory.appendingPathComponent("catalog.yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return try errors(ofCatalogAt: file.path)
        }
    }

    /// The errors of a fixture, and the path they name it by: a fragment is
    /// checked through a catalog that includes it.
    static func errors(of fixture: BrokenCatalog) throws -> (diagnostics: [Diagnostic], path: String) {
        guard fixture.isFragment else { return (try errors(ofCatalogAt: fixture.file.path), fixture.file.path) }
        return try ScratchFolder.with(prefix: "storekeeper-schema") { directory in
            let fragment = directory.appendingPathComponent("fragment.yaml")
            try FileManager.default.copyItem(at: fixture.file, to: fragment)
            let catalog = directory.appendingPathComponent("catalog.yaml")
            try "catalog: host\napp: {bundle-id: com.example.host}\ninclude: [fragment.yaml]\n"
                .write(to: catalog, atomically: true, encoding: .utf8)
            return (try errors(ofCatalogAt: catalog.path), fragment.path)
        }
    }

}
