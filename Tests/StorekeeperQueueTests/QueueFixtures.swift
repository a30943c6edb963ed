import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// Catalogs, policies, journals and queues for the queue tests.
enum QueueFixtures {
    /// The package root: three directories above this file.
    static let packageRoot = PackageRoot.path

    static let exampleCatalogs = ["daily-planet", "inkwell", "rocket-racer"]

    /// The plugins an app registers: the `audit-log` step Rocket Racer names.
    static func plugins() throws -> PluginRegistry {
        var plugins = PluginRegistry()
        try plugins.register(AuditLogStep())
        return plugins
    }

    /// An example catalog from `Catalogs/`, compiled.
    static func example(_ name: String, plugins: PluginRegistry? = nil) throws -> CompiledPolicy {
        try PolicyLoader(plugins: plugins ?? Self.plugins()).load(contentsOf: "\(packageRoot)/Catalogs/\(name)/catalog.yaml")
    }

    /// A catalog from its text, compiled; the test fails on errors.
    static func policy(_ text: String, plugins: PluginRegistry? = nil) throws -> CompiledPolicy {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["queue.yaml": text])).load("queue.yaml")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics.map { "\($0.location): \($0.message)" })")
        let catalog = try #require(loaded.catalog)
        return try PolicyCompiler(plugins: plugins ?? Self.plugins()).compile(catalog)
    }

    /// A fresh folder for one test's files.
    static func folder(_ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-queue-tests", isDirectory: true)
            .appendingPathComponent("\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A configuration with quick retries and no jitter, journal in `folder`.
    static func configuration(_ folder: URL, recordStores: RecordStores = RecordStores(), services: EngineServices = EngineServices(),
                              now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_100) }) -> QueueConfiguration {
        QueueConfiguration(journalPath: folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
                           retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(40), jitter: 0),
                           services: services, recordStores: recordStores, now: now)
    }
}

/// The `audit-log` step Rocket Racer's catalog names: keeps a custom effect.
struct AuditLogStep: SynchronousStepPlugin {
    let name = "audit-log"
    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: name, detail: "\(context.product.id) x\(context.transaction.quantity)"))
    }
}

/// Records every event the queue sends, in order.
actor EventLog: TransactionObserver {
    private(set) var events: [QueueEvent] = []
    func queue(_ event: QueueEvent) async { events.append(event) }

    /// The removed (finished) transaction ids, in order.
    var removed: [String] {
        events.compactMap { if case .removed(let info) = $0 { info.id } else { nil } }
    }
    /// The transactions the UI was told of with `notify`.
    var notified: [TransactionInfo] {
        events.compactMap { if case .notify(let info) = $0 { info } else { nil } }
    }
    var ignored: [(String, IgnoredUpdate)] {
        events.compactMap { if case .ignored(let transaction, let reason) = $0 { (transaction.id, reason) } else { nil } }
    }
}

/// The queue tests' server: the simulator's in-process implementation of docs/server-contract.md.
typealias ServerContractTestDouble = SimulatedServer
