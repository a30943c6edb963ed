import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperTestSupport

/// Catalogs for the policy tests, loaded from YAML as users write them.
enum PolicyFixtures {
    static let header = """
        catalog: policy
        app: {bundle-id: com.example.app}
        server: {url: "https://store.example.com"}
        features: [pro]
        balances: [coins]
        groups: {premium: {name: Premium}}

        """

    /// Loads a catalog from its text; the test fails on load errors.
    static func catalog(_ text: String) -> Catalog? {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["policy.yaml": text])).load("policy.yaml")
        guard loaded.diagnostics.allSatisfy({ $0.severity != .error }) else {
            print(loaded.diagnostics)
            return nil
        }
        return loaded.catalog
    }

    /// One product's YAML.
    static func product(id: String, type: String, delivery: String, persistence: String, restore: String) -> String {
        ProductText.product(id: id, type: type, delivery: delivery, persistence: persistence, restore: restore)
    }

    /// Every valid combination of type, delivery, content and persistence the
    /// default plans distinguish, one product each.
    static var everyShape: Catalog? {
        var products = ""
        var number = 0
        let types = ["consumable", "non-consumable", "auto-renewable-subscription", "non-renewing-subscription"]
        let contents = ["", ", content: {source: bundle, path: a}", ", content: {source: apple-hosted, size: 10MB}", ", content: {source: server, path: a}"]
        for type in types {
            for model in ["built-in", "server"] {
                for content in contents {
                    if model == "built-in" && content.contains("source: server") { continue }
                    for persistence in ["receipt", "user-defaults", "icloud", "server", "app-state"] {
                        number += 1
                        let what = type == "consumable" ? "grants: {coins: 5}" : "unlocks: [pro]"
                        let restore = type == "consumable" ? "none" : content.contains("apple-hosted") ? "restore-transactions" : "server"
                        products += product(id: "p\(number)", type: type, delivery: "{model: \(model), \(what)\(content)}",
                                            persistence: persistence, restore: restore)
                    }
                }
            }
        }
        return catalog(header + "products:\n" + products)
    }
}
