public import Foundation
import StorekeeperQueue
public import StorekeeperRuntime
public import StorekeeperStoreModel

/// Random lives of devices on StoreKit 1: for each seed, a ``RandomLife`` of the App Store model, one device per
/// ``LifePerson`` with the real `TransactionQueue` on its own journal (`QueueConfiguration.now` the model's
/// clock) over the StoreKit 1 backend over a ``ModelStoreKit1Device``.
///
/// The common driver (``DeviceLifeDriver``) over ``StoreKit1LifeDevice``, with StoreKit 1's settings: StoreKit
/// draws its own delivery faults (``StoreKit1Faults``), users tap Restore Purchases now and then, and the
/// driver's faults come from a stream of their own (the one these lives were measured with).
public struct StoreKit1LifeDriver: Sendable {
    /// The backend's name in the command (`--backend storekit1`).
    public static let backend = "storekit1"
    /// The common driver, set up for StoreKit 1.
    public private(set) var driver: DeviceLifeDriver
    /// The compiled device catalog (``DeviceCatalog``).
    public var policy: CompiledPolicy { driver.policy }
    /// Whether each queue's events go into the life's story (a replay's).
    public var traces: Bool {
        get { driver.traces }
        set { driver.traces = newValue }
    }

    /// A driver.
    public init(policy: CompiledPolicy, modelConfiguration: StoreModel.Configuration, settings: LifeSettings = DeviceLifeDriver.settings,
                faults: DeviceFaults = .standard, storeKitFaults: StoreKit1Faults = .standard, restoreChance: Double = 0.02,
                scratch: URL = FileManager.default.temporaryDirectory) {
        driver = DeviceLifeDriver(policy: policy, modelConfiguration: modelConfiguration, settings: settings, faults: faults, backend: Self.backend,
                                  scratch: scratch, makeDeviceOfLife: { appleID, policy, model, seed in
            StoreKit1LifeDevice(appleID: appleID, policy: policy, model: model, faults: storeKitFaults, seed: seed)
        })
        driver.storeKitDrawsFaults = true
        driver.restoreChance = restoreChance
        driver.faultStream = 0x534B_315F_4C49_4645
    }

    /// The command that replays the life of `seed`.
    public func replayCommand(seed: UInt64) -> String { driver.replayCommand(seed: seed) }

    /// Lives the life of `seed` and reports what it did, and its failure if it failed.
    public func live(seed: UInt64) async -> DeviceLifeReport { await driver.live(seed: seed) }
}

extension StoreKit1LifeDriver: DeviceLivesDriver {}
