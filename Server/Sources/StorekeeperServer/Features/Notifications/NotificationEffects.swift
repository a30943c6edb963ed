import Foundation
import StorekeeperRuntime
import StorekeeperServerStorage
import StorekeeperVerification

/// What one verified App Store Server Notification does to the ledger, by its
/// `notificationType` and `subtype` (docs/server.md, "What the server grants
/// over a purchase's life").
///
/// The transaction it carries counts as any verified transaction does
/// (``TransactionEffects``: kept once, its newest signed version deciding,
/// its grants); while no user holds it, that version is kept as told, and
/// applied when a user does. What the App Store says of the subscription
/// (`data.status`, the renewal info's `gracePeriodExpiresDate`) is kept by
/// original transaction id, whoever holds it, the newest signed winning: the
/// subscription's state is derived from it and its current period when read,
/// never from the order notifications arrive in. A refund or revocation takes
/// back grants, a reversal gives them back (both follow the newest kept version
/// of the transaction), and a consumption request is kept for the team.
enum NotificationEffects {
    /// What the notification holds once verified.
    struct Input {
        var uuid: String
        var type: String
        var subtype: String?
        /// When the App Store signed the notification: its `data.status` is as new as that.
        var signedDate: Date?
        /// `data.status`: the subscription's status when the App Store signed the notification.
        var status: Int64?
        /// The verified `signedTransactionInfo` and the JWS as received.
        var transaction: (verified: VerifiedTransaction, payload: String)?
        /// The verified `signedRenewalInfo`.
        var renewal: VerifiedRenewalInfo?
    }

    /// The types whose transaction is kept as any verified transaction is:
    /// those of Apple's V2 notifications that carry one. Others (`TEST`, and
    /// types this server does not know) are stored and change nothing.
    static let typesCarryingATransaction: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED", "DID_CHANGE_RENEWAL_STATUS",
        "DID_CHANGE_RENEWAL_PREF", "OFFER_REDEEMED", "PRICE_INCREASE", "RENEWAL_EXTENDED", "ONE_TIME_CHARGE",
        "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "REVOKE", "CONSUMPTION_REQUEST",
    ]

    /// The effects of `input` for `user` (nil when no user holds its transaction: then its
    /// version is kept as told, for whoever holds it later), at `now`.
    static func effects(
        of input: Input, user: String?, policy: CompiledPolicy, now: Date
    ) throws(TransactionEffects.Incomplete) -> [LedgerEffect] {
        guard typesCarryingATransaction.contains(input.type) else { return [] }
        var effects: [LedgerEffect] = []
        let transaction = input.transaction?.verified
        if let (verified, payload) = input.transaction {
            guard let id = verified.transactionID, !id.isEmpty else { throw TransactionEffects.Incomplete(field: "transactionId") }
            let kept = try TransactionEffects.effects(of: verified, payload: payload, user: user ?? "", policy: policy, now: now)
            if user != nil {
                effects = kept
            } else {
                effects = kept.compactMap { effect in
                    guard case .transaction(let told) = effect else { return nil }
                    return .toldTransaction(told)
                }
            }
        }
        if let renewal = renewal(of: input) { effects.append(.renewal(renewal)) }
        guard let transaction, let id = transaction.transactionID else { return effects }
        switch input.type {
        case "REFUND", "REVOKE":
            // A prorated refund names its share; a full refund and a revocation take all of it.
            let share = transaction.revocationPercentage.map { Int(clamping: $0) } ?? GrantRevocation.whole
            let date = (transaction.revocationDate ?? now).timeIntervalSince1970
            effects.append(
                .revokeGrants(GrantRevocation(transactionID: id, share: min(max(share, 0), GrantRevocation.whole), date: date)))
        case "REFUND_REVERSED":
            effects.append(.reinstateGrants(transactionID: id))
        case "CONSUMPTION_REQUEST":
            effects.append(
                .consumptionRequest(
                    ConsumptionRequest(notificationUUID: input.uuid, transactionID: id, user: user, receivedAt: now.timeIntervalSince1970)))
        default:
            break
        }
        return effects
    }

    /// What the notification says of its subscription: `data.status` as of the notification's
    /// `signedDate`, the renewal info's grace period as of the renewal info's own; nil when it
    /// says neither, or names no original transaction.
    private static func renewal(of input: Input) -> SubscriptionRenewal? {
        let original = [input.transaction?.verified.originalTransactionID, input.renewal?.originalTransactionID]
            .compactMap { $0 }.first { !$0.isEmpty }
        guard let original else { return nil }
        let status = input.signedDate == nil ? nil : input.status.map { Int(clamping: $0) }
        let renewalSigned = input.renewal?.signedDate?.timeIntervalSince1970
        guard status != nil || renewalSigned != nil else { return nil }
        return SubscriptionRenewal(
            originalTransactionID: original, status: status, statusSignedDate: status == nil ? nil : input.signedDate?.timeIntervalSince1970,
            gracePeriodExpiresDate: renewalSigned == nil ? nil : input.renewal?.gracePeriodExpiresDate?.timeIntervalSince1970,
            renewalSignedDate: renewalSigned)
    }
}
