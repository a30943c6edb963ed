/// What a purchase returned (`Product.PurchaseResult`).
public enum StoreKit2PurchaseResult: Sendable {
    /// Bought: the transaction, with StoreKit's check of its signature (`.success`).
    case success(StoreKit2Verification)
    /// Waiting for someone's approval (Ask to Buy) or for the user to act
    /// (Strong Customer Authentication): no transaction yet; one arrives
    /// on `Transaction.updates` if the purchase goes ahead (`.pending`).
    case pending
    /// The user cancelled (`.userCancelled`).
    case userCancelled
}
