import Foundation

/// A purchase the store took back after it was delivered: refunded, or no
/// longer shared with the user's family. What it delivered is removed, and
/// every transaction that refers to it delivers nothing from then on.
///
/// The store lists the transactions itself, since only it knows them all:
/// the revoked purchase, then its restores (on any device) and, for a
/// subscription, its renewals. The queue removes what each of them delivered
/// on this device.
public struct StoreRevocation: Sendable, Hashable {
    /// Why the store took the purchase back.
    public enum Reason: String, Sendable, Hashable {
        /// The user was refunded.
        case refund
        /// The purchaser stopped sharing it with the user's family (or the
        /// user left the family).
        case familySharing = "family-sharing"
    }

    /// The product the purchase was for.
    public var productID: String
    /// The revoked purchase first, then every transaction that refers to it
    /// (its restores and, for a subscription, its renewals).
    public var transactionIDs: [String]
    /// Why it was revoked.
    public var reason: Reason
    /// When the store revoked it.
    public var date: Date

    /// Describes a revocation.
    ///
    /// - Parameters:
    ///   - productID: The product the purchase was for.
    ///   - transactionIDs: The revoked purchase, then its restores and renewals.
    ///   - reason: A refund, or family sharing stopped.
    ///   - date: When the store revoked it.
    public init(productID: String, transactionIDs: [String], reason: Reason, date: Date) {
        self.productID = productID
        self.transactionIDs = transactionIDs
        self.reason = reason
        self.date = date
    }
}
