import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import StorekeeperTestSupport
import Testing

/// One device running the StoreKit 1 backend over a fake payment queue,
/// with the real `TransactionQueue` and Rocket Racer's compiled catalog
/// (consumables, non-consumables with bundled and Apple-hosted content,
/// auto-renewable subscriptions and an iCloud season pass).
struct StoreKit1World {
    static let coins = "com.example.rocketracer.coins.500"
    static let rocketCar = "com.example.rocketracer.vehicle.rocketcar"
    static let noAds = "com.example.rocketracer.noads"
    static let canyon = "com.example.rocketracer.tracks.canyon"
    static let proMonthly = "com.example.rocketracer.pro.monthly"
    static let seasonPass = "com.example.rocketracer.seasonpass.spring"
    static let now = Date(timeIntervalSince1970: 1_800_000_100)

    let folder: URL
    let policy: CompiledPolicy
    let fake: FakePaymentQueue
    let receipt: FakeReceipt
    let backend: StoreKit1Backend
    let log = Log()
    let configuration: QueueConfiguration

    /// A new device in a folder of its own (or a relaunch over `folder`).
    init(name: String = #function, folder: URL? = nil, fake: FakePaymentQueue = FakePaymentQueue(), receipt: FakeReceipt = FakeReceipt(),
         products: (any StoreKit1ProductsRequester)? = nil, policy: CompiledPolicy? = nil) throws {
        let folder = try folder ?? Self.folder(name)
        self.folder = folder
        let policy = try policy ?? Self.rocketRacer()
        self.policy = policy
        self.fake = fake
        self.receipt = receipt
        backend = StoreKit1Backend(policy: policy, paymentQueue: fake, receipt: receipt, products: products,
                                   documentsFolder: folder.appendingPathComponent("Documents", isDirectory: true))
        fake.backend = backend
        configuration = QueueConfiguration(
            journalPath: folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(40), jitter: 0),
            services: EngineServices(hostedContent: backend),
            recordStores: RecordStores(iCloud: SyncedKeyValueStore(folder: folder.appendingPathComponent("icloud", isDirectory: true), device: "this-device")),
            now: { Self.now })
    }

    /// The queue over the backend, started with the log as its observer.
    func startQueue(promotedPurchases: (@Sendable (PromotedPurchase) async -> PromotedPurchaseDecision)? = nil) async throws -> TransactionQueue {
        var configuration = configuration
        if let promotedPurchases { configuration.promotedPurchases = promotedPurchases }
        let queue = try TransactionQueue(policy: policy, store: backend, configuration: configuration)
        try await queue.start(observers: [log])
        return queue
    }

    /// Rocket Racer's catalog, compiled with the `audit-log` step it names.
    static func rocketRacer() throws -> CompiledPolicy {
        var plugins = PluginRegistry()
        try plugins.register(AuditLog())
        return try PolicyLoader(plugins: plugins).load(contentsOf: "\(PackageRoot.path)/Catalogs/rocket-racer/catalog.yaml")
    }

    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-storekit1-tests", isDirectory: true)
            .appendingPathComponent("\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Waits until the queue is idle and `done` holds of the log (five seconds at most).
    static func settle(_ queue: TransactionQueue, _ log: Log, sourceLocation: SourceLocation = #_sourceLocation,
                       _ done: @Sendable ([QueueEvent]) -> Bool = { _ in true }) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while clock.now < deadline {
            await queue.whenIdle()
            if done(await log.events) { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the queue did not reach the expected events within 5 seconds: \(await log.events)", sourceLocation: sourceLocation)
    }

    /// The `audit-log` step Rocket Racer names.
    struct AuditLog: SynchronousStepPlugin {
        let name = "audit-log"
        func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
            effects.append(.custom(step: name, detail: "\(context.product.id) x\(context.transaction.quantity)"))
        }
    }

    /// Every event the queue sends, in order.
    actor Log: TransactionObserver {
        private(set) var events: [QueueEvent] = []
        func queue(_ event: QueueEvent) async { events.append(event) }

        var updated: [StoreTransaction] { events.compactMap { if case .updated(let t) = $0 { t } else { nil } } }
        var removed: [String] { events.compactMap { if case .removed(let info) = $0 { info.id } else { nil } } }
        var errorsShown: [StoreErrorCode] { events.compactMap { if case .presentError(_, let code) = $0 { code } else { nil } } }
        var ignored: [IgnoredUpdate] { events.compactMap { if case .ignored(_, let why) = $0 { why } else { nil } } }
        var failures: [(step: String, failure: StepFailure)] {
            events.compactMap { if case .stepFailed(_, let step, let failure, _) = $0 { (step, failure) } else { nil } }
        }
        func has(_ event: QueueEvent) -> Bool { events.contains(event) }
        /// Promoted purchases the queue refused, and why.
        var refusedPromotions: [(PromotedPurchase, PaymentError)] {
            events.compactMap { if case .promotedPurchaseRefused(let purchase, let error) = $0 { (purchase, error) } else { nil } }
        }
    }
}

extension QueueEvent {
    var isRestoreFinished: Bool { if case .restoreFinished = self { true } else { false } }
    var isRemoved: Bool { if case .removed = self { true } else { false } }
}
