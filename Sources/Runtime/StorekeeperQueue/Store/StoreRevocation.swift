import Foundation

/// A purchase the store took back after it was delivered: refunded, or no
/// longer shared with the user's family. What it delivered is removed, and
/// every transaction that refers to it delivers nothing from then on.
///
/// The store lists the transactions itself, since only it knows them all:
/// the revoked purchase, then its restores (where a restore is a transaction
/// of its own) and, when the store takes a whole subscription back, its
/// renewals. A renewal is a purchase of its own: StoreKit 2 refunds one
/// period at a time, and its revocation lists that period alone, so the
/// others stand. The queue removes what each listed transaction delivered on
/// this device.
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
    /// The revoked purchase first, then every transaction taken back with it
    /// (its restores, and the renewals of a subscription taken back whole).
    public var transactionIDs: [String]
    /// Why it was revoked.
    public var reason: Reason
    /// When the store revoked it.
    public var date: Date

    /// Describes a revocation.
    ///
    /// - Parameters:
    ///   - productID: The product the purchase was for.
    ///   - transactionIDs: The revoked purchase, then the transactions taken back with it.
    ///   - reason: A refund, or family sharing stopped.
    ///   - date: When the store revoked it.
    public init(productID: String, transactionIDs: [String], reason: Reason, date: Date) {
        self.productID = productID
        self.transactionIDs = transactionIDs
        self.reason = reason
        self.date = date
    }
}
