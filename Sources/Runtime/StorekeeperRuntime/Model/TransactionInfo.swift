public import StorekeeperCore

/// What a step sees of the transaction it handles.
public struct TransactionInfo: Sendable, Hashable {
    /// The store's identifier for the transaction: the key of every effect.
    public var id: String
    /// The product bought or restored.
    public var productID: String
    /// The state the store reported.
    public var state: TransactionState
    /// The store's error, for a failed transaction.
    public var error: StoreErrorCode?
    /// How many were bought (consumables may buy several in one payment).
    public var quantity: Int
    /// The app's opaque name for the user, if the payment carried one.
    public var applicationUsername: String?
    /// The receipt data the store gave with the transaction, if any (the
    /// original payment queue's app receipt).
    public var receipt: [UInt8]?
    /// The transaction as the App Store signed it, if the store gave one:
    /// StoreKit 2's `jwsRepresentation` (a JWS in compact serialization),
    /// which the `verify-receipt` step sends to the server to verify.
    public var signedTransaction: String?

    /// Describes a transaction.
    public init(id: String, productID: String, state: TransactionState, error: StoreErrorCode? = nil, quantity: Int = 1,
                applicationUsername: String? = nil, receipt: [UInt8]? = nil, signedTransaction: String? = nil) {
        self.id = id
        self.productID = productID
        self.state = state
        self.error = state == .failed ? error : nil
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.receipt = receipt
        self.signedTransaction = signedTransaction
    }
}
