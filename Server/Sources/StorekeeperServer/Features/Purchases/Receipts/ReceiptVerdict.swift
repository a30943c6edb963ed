public import Foundation

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
    /// A status that blames the server's own request, not the receipt (21000: not an HTTP POST or
    /// unreadable JSON; 21004: the shared secret does not match): the operator must fix the
    /// server's configuration; the receipt may be valid. Status and Apple's meaning.
    case misconfigured(status: Int, meaning: String)
    /// The receipt is from an App Store environment this server does not accept (a sandbox
    /// receipt on a production-only server): `environment` is the one the receipt is from. The
    /// other endpoint is not asked: a sandbox purchase never counts as production.
    case environmentNotAccepted(environment: ReceiptForwarder.Configuration.Environment, status: Int)
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
    /// `app_account_token`: the UUID the app gave the purchase (StoreKit's `appAccountToken`, or the
    /// original API's `applicationUsername` when it was a UUID); nil when absent or empty.
    /// https://developer.apple.com/documentation/appstorereceipts/app_account_token
    public var appAccountToken: String?
    /// When Apple stated what this entry says: the answer's `request_date_ms` for an entry of
    /// `latest_receipt_info` (the state when Apple answered), the receipt's `receipt_creation_date_ms`
    /// for an entry of `receipt.in_app` (the state when the receipt was made); nil when the answer
    /// has neither. A signed version Apple makes after it is newer.
    public var statedDate: Date?

    /// A purchase.
    public init(
        productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date, expiresDate: Date? = nil,
        cancellationDate: Date? = nil, quantity: Int = 1, appAccountToken: String? = nil, statedDate: Date? = nil
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.statedDate = statedDate
    }
}
