/// A refund (or a family-sharing revocation) taking back what a transaction
/// granted: all of it, or the share a prorated refund names.
///
/// Applied once per transaction: the `grants` rows are marked revoked, and each
/// balance goes down by its share, never below zero (what the user spent
/// already is not taken back twice). ``LedgerEffect/reinstateGrants(transactionID:)``
/// gives back exactly what was taken.
public struct GrantRevocation: Sendable, Equatable {
    /// The share of a grant that means all of it, in Apple's unit for
    /// `revocationPercentage`: thousandths of a percent.
    public static let whole = 100_000

    /// The transaction refunded or revoked: its grants are taken back.
    public var transactionID: String
    /// How much of each grant is taken back, in thousandths of a percent
    /// (`100_000` is all of it, `25_000` a quarter), as Apple writes a
    /// prorated refund's `revocationPercentage`. Rounded down per grant.
    public var share: Int
    /// When the App Store revoked it, seconds since 1970.
    public var date: Double

    /// A revocation of `share` of `transactionID`'s grants (all of them by default).
    public init(transactionID: String, share: Int = GrantRevocation.whole, date: Double) {
        self.transactionID = transactionID
        self.share = share
        self.date = date
    }
}
