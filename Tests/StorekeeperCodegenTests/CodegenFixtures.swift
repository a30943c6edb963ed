import Foundation
import StorekeeperCatalog
import StorekeeperCodegen
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTestSupport
import Testing

/// Paths in this package, from this file's place.
enum RepositoryPaths {
    /// The package root.
    static let root = URL(fileURLWithPath: PackageRoot.path)

    /// Every catalog shipped in `Catalogs/`, as absolute paths, sorted.
    static var shippedCatalogs: [String] {
        let folder = root.appendingPathComponent("Catalogs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0).appendingPathComponent("catalog.yaml").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The example app's catalog.
    static var exampleCatalog: String {
        root.appendingPathComponent("Examples/RocketRacerApp/Sources/RocketRacerApp/catalog.yaml").path
    }
}

/// Loads a catalog from disk, requiring that it has no errors.
func loadCatalog(atPath path: String) throws -> Catalog {
    let result = CatalogLoader().load(path)
    #expect(!result.hasErrors, "\(result.diagnostics)")
    return try #require(result.catalog)
}

/// Loads a catalog from text (in memory, as `path`), requiring that it has no errors.
func loadCatalog(_ text: String, path: String = "shop.yaml") throws -> Catalog {
    let result = CatalogLoader(reader: InMemorySourceReader([path: text])).load(path)
    #expect(!result.hasErrors, "\(result.diagnostics)")
    return try #require(result.catalog)
}

/// A catalog's text: a header with the given declarations, then `products`,
/// each written by ``product(_:)``.
func catalogText(
    name: String = "shop", features: [String] = [], balances: [String] = [], groups: [String] = [], products: [String]
) -> String {
    var text = "catalog: \(name)\napp:\n  bundle-id: com.example.shop\n"
    if !features.isEmpty { text += "features: [\(features.joined(separator: ", "))]\n" }
    if !balances.isEmpty { text += "balances: [\(balances.joined(separator: ", "))]\n" }
    if !groups.isEmpty {
        text += "groups:\n" + groups.map { "  \($0):\n    name: Group \($0)\n" }.joined()
    }
    return text + "products:\n" + products.joined()
}

/// One product entry of a catalog's `products` list.
func product(
    _ referenceName: String, id: String? = nil, type: String = "non-consumable", unlocks: [String] = [],
    grants: [String: Int] = [:], group: String? = nil, level: Int? = nil
) -> String {
    let productID = id ?? "com.example.shop." + referenceName.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil) }.map(String.init).joined().lowercased()
    var text = """
          - id: \(productID)
            type: \(type)
            reference-name: "\(referenceName)"
            price: "0.99"
            localizations:
              en-US: {title: Product, description: A product}

        """
    var delivery = "{model: built-in"
    if !unlocks.isEmpty { delivery += ", unlocks: [\(unlocks.joined(separator: ", "))]" }
    if !grants.isEmpty { delivery += ", grants: {\(grants.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}" }
    text += "    delivery: \(delivery)}\n"
    switch type {
    case "consumable":
        text += "    persistence: app-state\n    restore: none\n"
    case "auto-renewable-subscription":
        text += "    persistence: receipt\n    restore: receipt-refresh\n    group: \(group ?? "premium")\n    period: P1M\n"
        if let level { text += "    level: \(level)\n" }
    case "non-renewing-subscription":
        text += "    persistence: {strategy: icloud, record: receipt}\n    restore: icloud\n    duration: P3M\n"
    default:
        text += "    persistence: receipt\n    restore: receipt-refresh\n"
    }
    return text
}

/// The generated source, requiring that there was no error.
func generatedSource(_ catalogs: [Catalog], options: CodegenOptions = CodegenOptions()) throws -> String {
    let generated = SwiftGenerator(options: options).generate(catalogs)
    #expect(generated.diagnostics.isEmpty, "\(generated.diagnostics)")
    return try #require(generated.source)
}

/// The generated source's lines, without leading and trailing spaces.
func trimmedLines(_ source: String) -> [String] {
    source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
}
