public import Foundation

/// An in-app purchase the app receipt lists as canceled: refunded, or
/// revoked from Family Sharing (field 1712, Cancellation Date).
///
/// Apple's receipt fields say to treat a canceled purchase as though it had
/// never been made
/// (https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html),
/// and that it stays in the receipt
/// (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms).
/// The StoreKit 1 backend revokes the one transaction it names.
public struct ReceiptCancellation: Sendable, Hashable {
    /// The product.
    public var productID: String
    /// The canceled transaction (field 1703): this one alone, not its original or its renewals.
    public var transactionID: String
    /// When the App Store canceled it.
    public var date: Date

    /// Describes a canceled purchase.
    public init(productID: String, transactionID: String, date: Date) {
        self.productID = productID
        self.transactionID = transactionID
        self.date = date
    }
}
