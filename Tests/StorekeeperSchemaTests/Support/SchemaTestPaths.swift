import Foundation
import StorekeeperCore
import StorekeeperTestSupport
import StorekeeperYAML

/// Paths in this package, found from this file's location.
enum SchemaTestPaths {
    /// The package root.
    static let root = URL(fileURLWithPath: PackageRoot.path)

    /// The broken catalogs, one problem each.
    static let brokenFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/broken", isDirectory: true)

    /// Every catalog and fragment under `Catalogs/`: the YAML files that are
    /// not scenarios (a format of their own) nor `storekeeper.yml` (configuration).
    static func exampleCatalogFiles() throws -> [URL] {
        let catalogs = root.appendingPathComponent("Catalogs", isDirectory: true)
        guard let walker = FileManager.default.enumerator(at: catalogs, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let file as URL in walker {
            let relative = file.path.dropFirst(catalogs.path.count)
            guard ["yaml", "yml"].contains(file.pathExtension), !relative.contains("/scenarios/"),
                  !["storekeeper.yml", "storekeeper.yaml"].contains(file.lastPathComponent)
            else { continue }
            files.append(file)
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// A YAML file parsed with Storekeeper's own parser, as the converter needs it.
func parsedDocument(_ file: URL) throws -> YAMLDocument {
    let bytes = try [UInt8](Data(contentsOf: file))
    let parsed = YAMLParser.parse(bytes, file: file.path)
    guard let document = parsed.document else {
        throw PythonSchemaValidator.Failure(description: "\(file.path) does not parse: \(parsed.diagnostics)")
    }
    return document
}

/// A YAML text parsed with Storekeeper's own parser.
func parsedDocument(_ text: String, file: String = "test.yaml") throws -> YAMLDocument {
    let parsed = YAMLParser.parse(Array(text.utf8), file: file)
    guard let document = parsed.document else {
        throw PythonSchemaValidator.Failure(description: "the text does not parse: \(parsed.diagnostics)")
    }
    return document
}
