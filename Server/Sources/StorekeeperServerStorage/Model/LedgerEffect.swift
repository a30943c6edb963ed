/// One change a notification makes to the ledger, applied in the same
/// database transaction that marks the notification processed.
public enum LedgerEffect: Sendable, Equatable {
    /// Keep a verified transaction (a newer signed version wins).
    case transaction(StoredTransaction)
    /// Update a subscription's state (a newer signed state wins).
    case subscription(SubscriptionState)
    /// Grant a balance, once per transaction and balance.
    case grant(Grant)
    /// Keep a consumption request for the team.
    case consumptionRequest(ConsumptionRequest)
    /// Take back what a refunded or revoked transaction granted, once (see
    /// ``LedgerStorage/revokeGrants(_:)``).
    case revokeGrants(GrantRevocation)
    /// Give back what a revocation took, once, when the App Store reverses a
    /// refund (see ``LedgerStorage/reinstateGrants(of:)``).
    case reinstateGrants(transactionID: String)
}
