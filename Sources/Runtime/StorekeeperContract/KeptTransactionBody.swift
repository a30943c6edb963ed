/// The answer of `POST /v1/transactions` and `POST /v1/receipts/verify`:
/// the purchase the server verified and kept.
public struct KeptTransactionBody: Codable, Hashable, Sendable {
    /// The transaction kept.
    public var transaction: String
    /// Its product.
    public var product: String
    /// Its original transaction (itself, unless a renewal or a restore).
    public var originalTransaction: String
    /// The App Store environment it was made in (`Production`, `Sandbox`, `Xcode`).
    public var environment: String

    /// A kept transaction.
    public init(transaction: String, product: String, originalTransaction: String, environment: String) {
        self.transaction = transaction
        self.product = product
        self.originalTransaction = originalTransaction
        self.environment = environment
    }
}
