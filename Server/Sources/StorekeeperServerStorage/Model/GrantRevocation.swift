/// A refund (or a family-sharing revocation) taking back what a transaction
/// granted: all of it, or the share a prorated refund names.
///
/// The share is taken from the balance whatever it holds: what the user spent
/// already leaves a debt (the balance's net goes below zero, `owed`).
/// ``LedgerEffect/reinstateGrants(transactionID:)`` gives back exactly what was
/// taken. For a transaction the ledger keeps, its newest kept version decides
/// instead (its `revocationDate` and `revocationPercentage`).
public struct GrantRevocation: Sendable, Equatable {
    /// The share of a grant that means all of it, in Apple's unit for
    /// `revocationPercentage`: thousandths of a percent.
    public static let whole = 100_000

    /// `share` thousandths of a percent of `amount`, rounded to the nearest unit, halves up,
    /// without overflow (Apple's example: 33.333 % of 3 items is 1 item).
    public static func portion(_ share: Int, of amount: Int) -> Int {
        let clamped = min(max(share, 0), whole)
        let (units, rest) = amount.quotientAndRemainder(dividingBy: whole)
        return units * clamped + (2 * rest * clamped + whole) / (2 * whole)
    }

    /// The transaction refunded or revoked: its grants are taken back.
    public var transactionID: String
    /// How much of each grant is taken back, in thousandths of a percent
    /// (`100_000` is all of it, `25_000` a quarter), as Apple writes a
    /// prorated refund's `revocationPercentage`. Rounded to the nearest unit per grant, halves up.
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
