import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import StorekeeperTestSupport
import Testing

/// Rocket Racer's compiled catalog, the real `TransactionQueue` over a
/// `StoreKit2Backend` over ``FakeStoreKit2``, a journal in a scratch folder,
/// and every queue event recorded.
final class StoreKit2Harness: Sendable {
    static let coins = "com.example.rocketracer.coins.500"
    static let noAds = "com.example.rocketracer.noads"
    static let car = "com.example.rocketracer.vehicle.rocketcar"
    static let pro = "com.example.rocketracer.pro.monthly"
    static let seasonPass = "com.example.rocketracer.seasonpass.spring"
    /// The queue's clock: after every fake purchase date, before every expiration the tests set.
    static let now = FakeStoreKit2.start.addingTimeInterval(100_000)

    let policy: CompiledPolicy
    let folder: URL
    let fake = FakeStoreKit2()
    let log = QueueLog()

    /// Rocket Racer's catalog as it is, or as `editCatalog` rewrites its text.
    init(_ name: String = #function, editCatalog: ((String) throws -> String)? = nil) throws {
        var plugins = PluginRegistry()
        try plugins.register(AuditLog())
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-storekit2-tests", isDirectory: true)
            .appendingPathComponent("\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalogs = "\(PackageRoot.path)/Catalogs/rocket-racer"
        guard let editCatalog else {
            policy = try PolicyLoader(plugins: plugins).load(contentsOf: "\(catalogs)/catalog.yaml")
            return
        }
        let edited = folder.appendingPathComponent("catalog", isDirectory: true)
        try FileManager.default.createDirectory(at: edited, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(catalogs)/storekeeper.yml", toPath: edited.appendingPathComponent("storekeeper.yml").path)
        try editCatalog(try String(contentsOfFile: "\(catalogs)/catalog.yaml", encoding: .utf8))
            .write(to: edited.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
        policy = try PolicyLoader(plugins: plugins).load(contentsOf: edited.appendingPathComponent("catalog.yaml").path)
    }

    /// Rocket Racer with a promotional and a win-back offer on Pro Monthly (docs/format.md's spelling).
    static func withOffers(_ name: String = #function) throws -> StoreKit2Harness {
        try StoreKit2Harness(name) { catalog in
            let anchor = "    introductory-offer: {mode: free-trial, period: P1W}\n    family-shareable: true\n"
            try #require(catalog.contains(anchor), "Pro Monthly is written as the tests expect")
            return catalog.replacingOccurrences(of: anchor, with: anchor + """
                    offers:
                      - {id: pro.spring, kind: promotional, reference-name: Spring, mode: pay-as-you-go, period: P1M, periods: 3, price: "1.99"}
                      - {id: pro.comeback, kind: win-back, reference-name: Come Back, mode: free-trial, period: P1M}

                """)
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// One launch of the app: a backend and a queue over the same journal and the same StoreKit.
    struct Launch {
        let backend: StoreKit2Backend
        let queue: TransactionQueue
    }

    /// Launches the app: a new backend and queue, started (StoreKit's unfinished transactions replayed,
    /// through `Transaction.unfinished` and through the updates listener, and handled).
    func launch(user: String? = "player-1",
                promotedPurchases: @escaping @Sendable (PromotedPurchase) async -> PromotedPurchaseDecision = { _ in .buyNow }) async throws -> Launch {
        let backend = StoreKit2Backend(store: fake, applicationUsername: user)
        return try await start(backend, promotedPurchases: promotedPurchases)
    }

    /// Starts a queue over a backend already made, as the app's launch goes on.
    func start(_ backend: StoreKit2Backend,
               promotedPurchases: @escaping @Sendable (PromotedPurchase) async -> PromotedPurchaseDecision = { _ in .buyNow }) async throws -> Launch {
        let configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(40), jitter: 0),
            recordStores: RecordStores(iCloud: FileKeyValueStore(file: folder.appendingPathComponent("icloud.json"))),
            now: { StoreKit2Harness.now }, promotedPurchases: promotedPurchases)
        let queue = try TransactionQueue(policy: policy, store: backend, configuration: configuration)
        try await queue.start(observers: [log])
        await fake.launchReplayHandled()
        await queue.whenIdle()
        return Launch(backend: backend, queue: queue)
    }

    /// Ends a launch: the queue stops, StoreKit's updates end.
    func end(_ launch: Launch) async {
        await launch.queue.stop()
        await fake.endUpdates()
    }
}

/// The `audit-log` step Rocket Racer's catalog names.
struct AuditLog: SynchronousStepPlugin {
    let name = "audit-log"
    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: name, detail: context.product.id))
    }
}

/// Every event the queue tells, in order.
actor QueueLog: TransactionObserver {
    private(set) var events: [QueueEvent] = []
    func queue(_ event: QueueEvent) async { events.append(event) }

    /// The transactions the queue dispatched (`updated`), in order.
    var updated: [StoreTransaction] { events.compactMap { if case .updated(let t) = $0 { t } else { nil } } }
    /// The ids the queue finished (`removed`), in order.
    var removed: [String] { events.compactMap { if case .removed(let info) = $0 { info.id } else { nil } } }
    /// Errors the queue asked the app to show.
    var presented: [(String, StoreErrorCode)] {
        events.compactMap { if case .presentError(let info, let code) = $0 { (info.id, code) } else { nil } }
    }
    var ignored: [(String, IgnoredUpdate)] {
        events.compactMap { if case .ignored(let t, let reason) = $0 { (t.id, reason) } else { nil } }
    }
    var revocations: [StoreRevocation] { events.compactMap { if case .revoked(let r) = $0 { r } else { nil } } }
    /// Promoted purchases the queue refused, and why.
    var refusedPromotions: [(PromotedPurchase, PaymentError)] {
        events.compactMap { if case .promotedPurchaseRefused(let purchase, let error) = $0 { (purchase, error) } else { nil } }
    }
    var restoreEnds: [QueueEvent] {
        events.filter { if case .restoreFinished = $0 { true } else if case .restoreFailed = $0 { true } else { false } }
    }
}
