public import StorekeeperCore
/// How the store answers a purchase.
public enum PurchaseOutcome: Sendable, Hashable {
    /// Purchased.
    case succeed
    /// Deferred until approved or declined.
    case askToBuy
    /// Failed with a payment-cancelled first; purchased after `resolve`.
    case interrupted
    /// Failed with the store's error.
    case fail(StoreErrorCode)
}
