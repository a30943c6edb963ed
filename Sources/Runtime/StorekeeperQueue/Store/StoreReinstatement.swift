public import Foundation

/// A refund the store reversed: the transactions stand again, and what their
/// revocation took (ownership, features, records, content, and exactly the
/// share of each balance it took back) is given back.
///
/// The App Store reverses a refund by signing the transaction again without
/// its `revocationDate` (`REFUND_REVERSED`:
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
/// Only a revocation dated before that version counts as reversed: a stale
/// copy signed before the refund gives nothing back.
public struct StoreReinstatement: Sendable, Hashable {
    /// The product the purchase was for.
    public var productID: String
    /// The transactions that stand again.
    public var transactionIDs: [String]
    /// When the store signed the version that stands again: a revocation
    /// dated after it is not reversed by it.
    public var signedDate: Date

    /// Describes a reversed refund.
    ///
    /// - Parameters:
    ///   - productID: The product the purchase was for.
    ///   - transactionIDs: The transactions that stand again.
    ///   - signedDate: When the store signed the version without a revocation.
    public init(productID: String, transactionIDs: [String], signedDate: Date) {
        self.productID = productID
        self.transactionIDs = transactionIDs
        self.signedDate = signedDate
    }
}
