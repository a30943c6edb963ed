/// The part of StoreKit's `SKPaymentQueue` that ``StoreKit1Backend`` uses.
///
/// `SKPaymentQueue` conforms to it where StoreKit exists (AppleStoreKit1.swift);
/// the tests drive the backend through a fake. The names differ from
/// `SKPaymentQueue`'s own so that the conformance adds methods rather than
/// clashing with StoreKit's.
public protocol StoreKit1PaymentQueue: AnyObject {
    /// Asks the App Store to process a payment: `add(_:)` with an `SKMutablePayment`
    /// carrying the product, the quantity and `applicationUsername`.
    func addPayment(_ payment: StoreKit1Payment)

    /// Removes a completed or failed transaction from the queue: `finishTransaction(_:)`.
    /// StoreKit raises an exception for a transaction still `purchasing`; the
    /// backend never passes one.
    func finishStoreTransaction(_ transaction: any StoreKit1Transaction)

    /// Asks the App Store to deliver every completed transaction again as
    /// restored: `restoreCompletedTransactions(withApplicationUsername:)`
    /// (`restoreCompletedTransactions()` when there is no user name).
    func restoreStoreTransactions(applicationUsername: String?)

    /// Starts StoreKit calling a transaction observer: `add(_:)` with an
    /// `SKPaymentTransactionObserver` (anything else is ignored).
    func addStoreObserver(_ observer: AnyObject)

    /// Stops StoreKit calling a transaction observer: `remove(_:)`
    /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/remove(_:)).
    func removeStoreObserver(_ observer: AnyObject)

    /// The transactions StoreKit holds unfinished: `transactions`.
    var unfinishedTransactions: [any StoreKit1Transaction] { get }

    /// Adds downloads to the download list: `start(_:)`.
    func startDownloads(_ downloads: [any StoreKit1Download])
    /// Pauses downloads: `pause(_:)`.
    func pauseDownloads(_ downloads: [any StoreKit1Download])
    /// Resumes paused downloads: `resume(_:)`.
    func resumeDownloads(_ downloads: [any StoreKit1Download])
    /// Removes downloads from the download list: `cancel(_:)`.
    func cancelDownloads(_ downloads: [any StoreKit1Download])
}

/// A payment request, as `SKMutablePayment` carries it.
public struct StoreKit1Payment: Sendable, Hashable {
    /// `productIdentifier`.
    public var productID: String
    /// `quantity` (1 or more).
    public var quantity: Int
    /// `applicationUsername`: the app's opaque name for the user's account.
    public var applicationUsername: String?
    /// `paymentDiscount`: the promotional offer it redeems, if any.
    package var discount: StoreKit1PaymentDiscount?

    /// Describes a payment.
    package init(productID: String, quantity: Int = 1, applicationUsername: String? = nil, discount: StoreKit1PaymentDiscount? = nil) {
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.discount = discount
    }
}
