/// What lives did, counted: one life's (``LifeOutcome``) or a whole run's (``LivesReport``), so that a run
/// is the sum of its lives.
public struct LifeCounts: Sendable, Equatable {
    /// Steps taken.
    public var steps = 0
    /// Checkpoints passed (or reached).
    public var checkpoints = 0
    /// Messages delivered (requests made for the App Store's and the devices' messages, duplicates included).
    public var deliveries = 0
    /// Spends made.
    public var spends = 0
    /// Actions the model refused (another was drawn).
    public var refusals = 0
    /// Messages a device missed because it was off.
    public var missed = 0
    /// Times the server went down and came back.
    public var restarts = 0
    /// Actions performed, by kind (`buy`, `refund`, …, `advance`).
    public var performed: [String: Int] = [:]
    /// Actions the model refused, by kind.
    public var refused: [String: Int] = [:]
    /// Deliveries by attempt (`first`, `duplicate`, `retry`, `stale-copy`).
    public var attempts: [String: Int] = [:]
    /// With devices: purchases made through a device's queue.
    public var purchasesThroughQueues = 0
    /// With devices: transactions StoreKit handed a device outside a purchase (`Transaction.updates`).
    public var updatesToDevices = 0
    /// With devices: the driver's posts of device transactions left to the devices.
    public var postedByDevices = 0
    /// With devices: device entitlements compared with the model's.
    public var deviceChecks = 0
    /// With devices: apps closed and opened again (the queue relaunched on its journal).
    public var relaunches = 0
    /// With devices: StoreKit's faults drawn (duplicates, unverified first, redeliveries, reorderings).
    public var storeKitFaults = 0

    /// Nothing counted yet.
    public init() {}

    /// Adds `other`'s counts to these.
    public mutating func add(_ other: LifeCounts) {
        steps += other.steps
        checkpoints += other.checkpoints
        deliveries += other.deliveries
        spends += other.spends
        refusals += other.refusals
        missed += other.missed
        restarts += other.restarts
        performed.merge(other.performed, uniquingKeysWith: +)
        refused.merge(other.refused, uniquingKeysWith: +)
        attempts.merge(other.attempts, uniquingKeysWith: +)
        purchasesThroughQueues += other.purchasesThroughQueues
        updatesToDevices += other.updatesToDevices
        postedByDevices += other.postedByDevices
        deviceChecks += other.deviceChecks
        relaunches += other.relaunches
        storeKitFaults += other.storeKitFaults
    }
}
