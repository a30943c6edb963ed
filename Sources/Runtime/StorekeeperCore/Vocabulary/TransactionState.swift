/// The state a transaction is reported in.
public enum TransactionState: String, CaseIterable, Hashable, Sendable {
    /// Being processed by the store.
    case purchasing
    /// Waiting for an outside action such as Ask to Buy.
    case deferred
    /// Paid: deliver, then finish.
    case purchased
    /// Did not go through.
    case failed
    /// Replayed by a restore.
    case restored
}
