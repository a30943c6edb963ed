/// The body of `POST /v1/receipts/verify`: a transaction without a signed
/// form (StoreKit 1), named with its product, and the app's receipt.
public struct ReceiptVerificationBody: Codable, Hashable, Sendable {
    /// The transaction to prove.
    public var transaction: String
    /// The product it bought.
    public var product: String
    /// The app receipt in standard Base64 with padding; `null` when the device had none.
    public var receipt: String?

    /// The body, for the documentation and the 400's message.
    public static let shape = #"{"product": "<product id>", "receipt": "<Base64>" or null, "transaction": "<transaction id>"}"#

    /// A body.
    package init(transaction: String, product: String, receipt: String?) {
        self.transaction = transaction
        self.product = product
        self.receipt = receipt
    }

    /// Always written, as `null` when absent: the document shows the member in every body.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transaction, forKey: .transaction)
        try container.encode(product, forKey: .product)
        try container.encode(receipt, forKey: .receipt)
    }
}
