/// One change a notification or a purchase makes to the ledger, applied in
/// one database transaction.
public enum LedgerEffect: Sendable, Equatable {
    /// Keep a verified transaction for its user (a newer signed version wins),
    /// then settle its grants by the newest kept version.
    case transaction(StoredTransaction)
    /// Keep a verified transaction that no user holds yet, as a notification
    /// told it (a newer signed version wins): applied when a user holds it.
    /// When a user holds it by the time it is applied, it is kept for that user.
    case toldTransaction(StoredTransaction)
    /// Keep what the App Store says of a subscription (a newer signed part wins).
    case renewal(SubscriptionRenewal)
    /// Grant a balance, once per transaction and balance.
    case grant(Grant)
    /// Keep a consumption request for the team.
    case consumptionRequest(ConsumptionRequest)
    /// Take back what a refunded or revoked transaction granted (see
    /// ``LedgerStorage/revokeGrants(_:)``).
    case revokeGrants(GrantRevocation)
    /// Give back what a revocation took, when the App Store reverses a
    /// refund (see ``LedgerStorage/reinstateGrants(of:)``).
    case reinstateGrants(transactionID: String)
}
