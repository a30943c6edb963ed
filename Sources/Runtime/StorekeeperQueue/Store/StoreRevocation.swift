public import Foundation

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
/// this device: its ownership, features, records and content whatever the
/// ``share``, and the ``share`` of each balance it granted.
///
/// A refund the App Store reverses later is a ``StoreReinstatement``: what
/// the revocation took is given back.
public struct StoreRevocation: Sendable, Hashable {
    /// The share of a grant that is all of it, in thousandths of a percent
    /// (Apple's `revocationPercentage` unit on the server: 100.000 %).
    public static let whole = 100_000
    /// Why the store took the purchase back.
    public enum Reason: String, Sendable, Hashable {
        /// The user was refunded.
        case refund
        /// The purchaser stopped sharing it with the user's family (or the
        /// user left the family).
        case familySharing = "family-sharing"
        /// The user upgraded the subscription to a higher level of service,
        /// which entitles them instead (StoreKit 2's `isUpgraded`). Nothing
        /// was refunded: sent with a ``StoreRevocation/share`` of 0, so the
        /// tier's ownership and features end and its balances stand.
        case upgraded
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
    /// How much of each balance the transactions granted is taken back, in
    /// thousandths of a percent: ``whole`` for a full refund or a family
    /// revocation, less for a prorated refund (Apple's `revocationPercentage`:
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage).
    /// Ownership and features go whatever the share: a revoked transaction
    /// gives no product, as the server says.
    public var share: Int

    /// Describes a revocation.
    ///
    /// - Parameters:
    ///   - productID: The product the purchase was for.
    ///   - transactionIDs: The revoked purchase, then the transactions taken back with it.
    ///   - reason: A refund, or family sharing stopped.
    ///   - date: When the store revoked it.
    ///   - share: How much of each grant is taken back, in thousandths of a percent
    ///     (clamped to 0...``whole``); all of it unless a prorated refund says less.
    public init(productID: String, transactionIDs: [String], reason: Reason, date: Date, share: Int = StoreRevocation.whole) {
        self.productID = productID
        self.transactionIDs = transactionIDs
        self.reason = reason
        self.date = date
        self.share = min(max(share, 0), StoreRevocation.whole)
    }

    /// The part of `amount` this revocation takes back: ``share`` thousandths
    /// of a percent of it, rounded to the nearest unit, halves up (Apple's
    /// example: 33.333 % of 3 items is 1), without overflow. The server
    /// rounds the same way, so device and server take the same.
    public func portion(of amount: Int) -> Int {
        Self.portion(of: amount, share: share)
    }

    /// The part of `amount` a revocation of `share` takes back (see ``portion(of:)``).
    static func portion(of amount: Int, share: Int) -> Int {
        let (units, rest) = amount.quotientAndRemainder(dividingBy: whole)
        return units * share + (2 * rest * share + whole) / (2 * whole)
    }
}
