/// What device lives did, counted: one life's (``DeviceLifeReport``) or many summed (``DeviceLivesSummary``).
public struct DeviceLifeCounts: Sendable, Hashable {
    /// People (one device each).
    public var devices = 0
    /// Steps taken (setting up and the end included).
    public var steps = 0
    /// Purchases made through a device's queue.
    public var purchases = 0
    /// Relaunches of a device's app (each a new queue and backend over the same journal and StoreKit).
    public var relaunches = 0
    /// Checkpoints passed or failed (each compares every device with the model).
    public var checkpoints = 0
    /// Spends made through a device's queue.
    public var spends = 0
    /// Transactions StoreKit gave the apps (updates, launch replays, purchase answers).
    public var deliveries = 0
    /// Finishes of unfinished transactions.
    public var finishes = 0
    /// Faults drawn, by kind.
    public var faults: [String: Int] = [:]

    /// Nothing counted yet.
    public init() {}

    /// Adds `other`'s counts to these.
    public mutating func add(_ other: DeviceLifeCounts) {
        devices += other.devices
        steps += other.steps
        purchases += other.purchases
        relaunches += other.relaunches
        checkpoints += other.checkpoints
        spends += other.spends
        deliveries += other.deliveries
        finishes += other.finishes
        for (kind, count) in other.faults { faults[kind, default: 0] += count }
    }
}
