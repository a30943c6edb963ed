import StorekeeperCatalog
@testable import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPolicy
@testable import StorekeeperRuntime
import StorekeeperTestSupport
import Testing

/// Catalogs for the engine tests, from YAML as users write them.
enum EngineFixtures {
    static let header = """
        catalog: engine
        app: {bundle-id: com.example.app}
        server: {url: "https://store.example.com"}
        features: [pro, maps]
        balances: [coins, gems]
        groups: {premium: {name: Premium}}

        """

    /// The package root: three directories above this file.
    static let packageRoot = PackageRoot.path

    static let exampleCatalogs = ["daily-planet", "inkwell", "rocket-racer"]

    /// An example catalog from `Catalogs/`.
    static func example(_ name: String) throws -> Catalog {
        let loaded = CatalogLoader(reader: FileSystemReader()).load("\(packageRoot)/Catalogs/\(name)/catalog.yaml")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        return try #require(loaded.catalog)
    }

    /// A catalog from its text; the test fails on load errors.
    static func catalog(_ text: String, file: String = "engine.yaml") throws -> Catalog {
        let loaded = CatalogLoader(reader: InMemorySourceReader([file: text])).load(file)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map { "\($0.location): \($0.message)" })")
        return try #require(loaded.catalog)
    }

    /// One product's YAML.
    static func product(id: String, type: String, delivery: String, persistence: String, restore: String) -> String {
        ProductText.product(id: id, type: type, delivery: delivery, persistence: persistence, restore: restore)
    }

    /// Every valid combination of type, delivery, content and persistence
    /// the default plans distinguish, one product each, then `rules`.
    static func everyShape(rules: String = "") throws -> Catalog {
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
        return try catalog(header + "products:\n" + products + rules)
    }

    /// A registry that knows `audit-log` (no requirements) and `sync-server` (needs a server).
    static var plugins: PluginRegistry {
        var plugins = PluginRegistry()
        do {
            try plugins.register(RecordingStep(name: "audit-log"))
            try plugins.register(RecordingStep(name: "sync-server", requirements: [.server]))
        } catch {
            Issue.record("registering: \(error)")
        }
        return plugins
    }
}

/// A plugin step that reports its own effect.
struct RecordingStep: SynchronousStepPlugin {
    let name: String
    var requirements: [StepRequirement] = []

    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: name, detail: context.transaction.id))
    }
}

/// What a plan is, for comparing two policies: names, origins, rule.
struct PlanShape: Hashable, CustomStringConvertible {
    var steps: [String]
    var origins: [StepOrigin]
    var rule: Int?

    init(_ plan: Plan) {
        steps = plan.stepNames
        origins = plan.steps.map(\.origin)
        rule = plan.rule
    }

    var description: String { steps.joined(separator: " → ") + (rule.map { " (rule \($0))" } ?? "") }
}
