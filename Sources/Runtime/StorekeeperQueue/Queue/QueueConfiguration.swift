public import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// How a queue runs: where its journal is, how durable, how it retries, and
/// what it reaches the outside world with.
public struct QueueConfiguration: Sendable {
    /// The journal's database file: created only where nothing is (its folder
    /// must exist); an empty or cut-short file is refused, never replaced.
    /// `PATH.lock` beside it keeps a second queue from opening it.
    public var journalPath: String
    /// How much a commit survives.
    public var durability: JournalDurability
    /// When failed steps run again.
    public var retry: RetryPolicy
    /// The host's server transport and hosted-content downloader, for steps.
    public var services: EngineServices
    /// Where `user-defaults`, `icloud` and `server` records are kept.
    public var recordStores: RecordStores
    /// The most store events one batch (one durable commit) takes.
    public var batchLimit: Int
    /// The time now (subscriptions' expiry, retries); replaceable in tests.
    public var now: @Sendable () -> Date
    /// Whether a purchase the user started outside the app (a promoted
    /// in-app purchase) is bought now or later, asked once it passed the
    /// queue's checks: ``PromotedPurchaseDecision/buyNow`` by default. The
    /// question of StoreKit 1's `paymentQueue(_:shouldAddStorePayment:for:)`,
    /// asked the same way whichever backend runs. Answer promptly: the
    /// purchase waits for it (the queue does not).
    public var promotedPurchases: @Sendable (PromotedPurchase) async -> PromotedPurchaseDecision
    /// Called at each fault point, for crash tests.
    package var faultInjection: (@Sendable (FaultPoint) -> Void)?
    /// Watches each step, for the simulator's trace and crashes.
    package var stepProbe: StepProbe?
    /// Called at a spend's fault points with its key, for the simulator's
    /// crashes (which suspend here for good).
    package var spendProbe: (@Sendable (FaultPoint, String) async -> Void)?

    /// A configuration.
    public init(journalPath: String, durability: JournalDurability = .full, retry: RetryPolicy = RetryPolicy(),
                services: EngineServices = EngineServices(), recordStores: RecordStores = RecordStores(), batchLimit: Int = 512,
                now: @escaping @Sendable () -> Date = { Date() },
                promotedPurchases: @escaping @Sendable (PromotedPurchase) async -> PromotedPurchaseDecision = { _ in .buyNow }) {
        self.journalPath = journalPath
        self.durability = durability
        self.retry = retry
        self.services = services
        self.recordStores = recordStores
        self.batchLimit = max(1, batchLimit)
        self.now = now
        self.promotedPurchases = promotedPurchases
    }
}
