import Foundation

/// What the App Store's `verifyReceipt` said of a receipt.
public enum ReceiptVerdict: Sendable, Equatable {
    /// Status 0: the receipt is valid; what it proves.
    case valid(ValidReceipt)
    /// A status that means the receipt is not valid (or the request was wrong): the status and
    /// Apple's meaning of it. Sending the same receipt again gets the same answer. `status` is
    /// nil when the receipt data was refused before asking (not Base64).
    case refused(status: Int?, meaning: String)
    /// No verdict now: a status Apple says to retry (21002, 21005, 21009, 21100–21199, or any
    /// answer with `is-retryable: true`), or the App Store could not be reached or answered
    /// something unreadable. `status` is Apple's, when it answered one.
    case unavailable(status: Int?, reason: String)
}

/// A receipt the App Store found valid (status 0).
public struct ValidReceipt: Sendable, Equatable {
    /// `Production` or `Sandbox`: the endpoint that accepted it (`environment` of the answer).
    public var environment: String
    /// The receipt's `bundle_id`.
    public var bundleID: String?
    /// The in-app purchases it proves: `receipt.in_app` and `latest_receipt_info`, one per
    /// transaction id (the latest info winning), in transaction id order.
    public var purchases: [ReceiptPurchase]

    /// A valid receipt.
    public init(environment: String, bundleID: String?, purchases: [ReceiptPurchase]) {
        self.environment = environment
        self.bundleID = bundleID
        self.purchases = purchases
    }
}

/// One in-app purchase a valid receipt proves (Apple's `in_app` and `latest_receipt_info` entries).
public struct ReceiptPurchase: Sendable, Equatable {
    /// `product_id`.
    public var productID: String
    /// `transaction_id`.
    public var transactionID: String
    /// `original_transaction_id` (the transaction id when absent).
    public var originalTransactionID: String
    /// `purchase_date_ms`.
    public var purchaseDate: Date
    /// `expires_date_ms`: when a subscription period ends.
    public var expiresDate: Date?
    /// `cancellation_date_ms`: when Apple Support refunded it; a cancelled purchase is to be treated as never made.
    public var cancellationDate: Date?
    /// `quantity` (1 when absent).
    public var quantity: Int

    /// A purchase.
    public init(
        productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date, expiresDate: Date? = nil,
        cancellationDate: Date? = nil, quantity: Int = 1
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
    }
}
