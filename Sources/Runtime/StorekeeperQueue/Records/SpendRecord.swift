public import Foundation
public import StorekeeperRuntime

/// A spend of a balance as a synced store keeps it, so that the user's other
/// devices subtract it: the app's key for it, the balance, the amount, and
/// when it was made.
///
/// A key names one spend on every device: the same key kept by two devices
/// is one spend (the app makes a new key for each thing the user buys with
/// a balance, and reuses it only to retry that one).
public struct SpendRecord: Sendable, Hashable {
    /// The app's idempotency key.
    public var key: String
    /// The balance spent.
    public var balance: String
    /// How much, at least 1.
    public var amount: Int
    /// When the spend was made.
    public var date: Date

    /// Creates a spend record.
    public init(key: String, balance: String, amount: Int, date: Date) {
        self.key = key
        self.balance = balance
        self.amount = amount
        self.date = date
    }
}

/// A record store that also keeps spends: the `icloud` strategy's, so that
/// a balance kept in iCloud is spent on every device. ``SyncedKeyValueStore``
/// is one; an app's own iCloud store adopts it to let balances kept in
/// iCloud be spent.
public protocol SpendRecordStore: RecordStore {
    /// Keeps a spend; keeping the same spend again is harmless.
    ///
    /// Throws a transient `StepFailure` when the store cannot be written
    /// now, a permanent one when it refuses the spend.
    func keepSpend(_ spend: SpendRecord) async throws(StepFailure)
    /// Every spend the store holds, from every device, one per key.
    func spends() async throws(StepFailure) -> [SpendRecord]
}
