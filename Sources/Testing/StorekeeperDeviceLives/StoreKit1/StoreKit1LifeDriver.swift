import Foundation
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreModel

/// Random lives of devices on StoreKit 1: for each seed, a ``RandomLife`` of the App Store model, one device per
/// ``LifePerson`` with the real `TransactionQueue` on its own journal (`QueueConfiguration.now` the model's
/// clock) over the StoreKit 1 backend over a ``ModelStoreKit1Device``.
///
/// Beside the common driver (``DeviceLifeDriver``), whose loop it follows, because StoreKit 1 needs what that
/// loop does not offer a backend: StoreKit 1's finish is synchronous (a crash may cut the app right after it,
/// which needs the queue's journal), its checkpoints compare with a projection of the model's entitlements
/// (``StoreKit1Projection``) and read a refreshed receipt first, and its spends are judged by the device's own
/// balance. Its reports and failures are the common driver's (``DeviceLifeReport``).
public struct StoreKit1LifeDriver: Sendable {
    /// The backend's name in the command (`--backend storekit1`).
    public static let backend = "storekit1"
    /// The compiled device catalog (``DeviceCatalog``).
    public let policy: CompiledPolicy
    /// The model's configuration (its start and grace period are drawn from each seed).
    public let modelConfiguration: StoreModel.Configuration
    /// The shape of lives (the network's faults off: StoreKit's are drawn here).
    public let settings: LifeSettings
    /// When apps relaunch, and when a step's transactions arrive while the app is not running.
    public let faults: DeviceFaults
    /// How StoreKit 1 hands transactions over.
    public let storeKitFaults: StoreKit1Faults
    /// The chance that, at a step, a user taps Restore Purchases (`restoreCompletedTransactions()`).
    public let restoreChance: Double
    /// Where each life's journals go (a folder per life, removed after it).
    public let scratch: URL
    /// Whether each queue's events go into the life's story (a replay's).
    public var traces = false

    /// A driver.
    public init(policy: CompiledPolicy, modelConfiguration: StoreModel.Configuration, settings: LifeSettings = DeviceLifeDriver.settings,
                faults: DeviceFaults = .standard, storeKitFaults: StoreKit1Faults = .standard, restoreChance: Double = 0.02,
                scratch: URL = FileManager.default.temporaryDirectory) {
        self.policy = policy
        self.modelConfiguration = modelConfiguration
        self.settings = settings
        self.faults = faults
        self.storeKitFaults = storeKitFaults
        self.restoreChance = restoreChance
        self.scratch = scratch
    }

    /// The command that replays the life of `seed`.
    public func replayCommand(seed: UInt64) -> String {
        "swift run storekeeper-device-lives --backend \(Self.backend) --replay \(seed)"
    }

    /// Lives the life of `seed` and reports what it did, and its failure if it failed.
    public func live(seed: UInt64) async -> DeviceLifeReport {
        let clock = ContinuousClock()
        let started = clock.now
        let folder = scratch.appendingPathComponent("storekeeper-storekit1-life-\(seed)-\(UUID().uuidString)", isDirectory: true)
        let run = StoreKit1LifeRun(driver: self, seed: seed, folder: folder)
        var report = await run.live()
        await run.end()
        report.story = run.story
        try? FileManager.default.removeItem(at: folder)
        report.duration = clock.now - started
        return report
    }
}

extension StoreKit1LifeDriver: DeviceLivesDriver {}
