/// A record of the `server` persistence strategy (docs/server-contract.md,
/// "The record object"), kept per user by transaction id.
public struct ServerRecord: Sendable, Equatable {
    /// The transaction that made the record: the key, with the user.
    public var transactionID: String
    /// The product bought.
    public var productID: String
    /// The persistence strategy it was kept for (`server`, ...).
    public var strategy: String
    /// `flag`, `receipt` or `transaction`.
    public var kind: String
    /// The quantity of a `transaction` record.
    public var quantity: Int?
    /// The Base64 receipt of a `receipt` record.
    public var receipt: String?
    /// When the product was bought, seconds since 1970.
    public var purchaseDate: Double
    /// When a subscription ends, seconds since 1970.
    public var expirationDate: Double?

    /// A record.
    public init(
        transactionID: String, productID: String, strategy: String, kind: String, quantity: Int? = nil,
        receipt: String? = nil, purchaseDate: Double, expirationDate: Double? = nil
    ) {
        self.transactionID = transactionID
        self.productID = productID
        self.strategy = strategy
        self.kind = kind
        self.quantity = quantity
        self.receipt = receipt
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
    }
}

/// What a `PUT` of a record did.
public enum RecordWrite: Sendable, Equatable {
    /// The user had no record of this transaction (201).
    case created
    /// The user's record of this transaction was replaced (200).
    case replaced
}
