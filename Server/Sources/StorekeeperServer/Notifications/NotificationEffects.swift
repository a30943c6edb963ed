import Foundation
import StorekeeperRuntime
import StorekeeperServerStorage
import StorekeeperVerification

/// What one verified App Store Server Notification does to the ledger, by its
/// `notificationType` and `subtype` (docs/server.md, "Notifications").
///
/// The transaction it carries counts as any verified transaction does
/// (``TransactionEffects``: kept once, a newer `signedDate` winning, its
/// grants, its subscription's state); then the type adds what the
/// transaction alone does not say: a failed renewal's grace period or billing
/// retry, an expiry, grants taken back by a refund or a family-sharing
/// revocation and given back when a refund is reversed, a consumption request
/// kept for the team.
enum NotificationEffects {
    /// What the notification holds once verified.
    struct Input {
        var uuid: String
        var type: String
        var subtype: String?
        /// When the App Store signed the notification: the subscription state it implies is as new as that.
        var signedDate: Date?
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

    /// The effects of `input` for `user` (nil when no user holds its transaction: then only
    /// the effects that need no user), at `now`.
    static func effects(
        of input: Input, user: String?, policy: CompiledPolicy, now: Date
    ) throws(TransactionEffects.Incomplete) -> [LedgerEffect] {
        guard typesCarryingATransaction.contains(input.type), let (transaction, payload) = input.transaction else { return [] }
        guard let id = transaction.transactionID, !id.isEmpty else { throw TransactionEffects.Incomplete(field: "transactionId") }
        var effects: [LedgerEffect] = []
        if let user {
            effects = try TransactionEffects.effects(of: transaction, payload: payload, user: user, policy: policy, now: now)
            effects = effects.map { effect in
                guard case .subscription(let state) = effect else { return effect }
                return .subscription(subscriptionState(state, after: input, transaction: transaction))
            }
        }
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

    /// The subscription's state as the notification says it: the transaction's (active, expired
    /// or revoked), except where the type says more, as new as the newest signed part.
    private static func subscriptionState(
        _ state: SubscriptionState, after input: Input, transaction: VerifiedTransaction
    ) -> SubscriptionState {
        var state = state
        let signed = [input.signedDate, input.renewal?.signedDate].compactMap { $0?.timeIntervalSince1970 }
        state.signedDate = max(state.signedDate, signed.max() ?? state.signedDate)
        // A refunded or revoked transaction stays revoked whatever else the type says.
        guard state.status != .revoked else { return state }
        switch input.type {
        case "DID_FAIL_TO_RENEW" where input.subtype == "GRACE_PERIOD":
            state.status = .gracePeriod
            if let end = input.renewal?.gracePeriodExpiresDate { state.expirationDate = end.timeIntervalSince1970 }
        case "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED":
            // The App Store keeps trying to bill, and access has ended.
            state.status = .billingRetry
        case "EXPIRED":
            state.status = .expired
        default:
            break
        }
        return state
    }
}
