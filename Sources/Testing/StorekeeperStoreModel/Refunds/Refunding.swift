import Foundation
import StorekeeperTestChain

extension StoreModel {
    /// The purchased transaction `id` and, for an auto-renewable subscription, its subscription.
    func refundable(_ id: String) throws(StoreModelError) -> (TransactionPayload, StoreWorld.Subscription?) {
        guard let payload = world.transactions[id] else { throw StoreModelError("no transaction \(id)") }
        guard payload.ownership == .purchased else {
            throw StoreModelError("transaction \(id) is family-shared; refunds and their notifications concern the purchaser's transaction")
        }
        let subscription = payload.type == .autoRenewableSubscription ? world.subscriptions[payload.originalTransactionID] : nil
        return (payload, subscription)
    }

    /// Sends `type` about transaction `payload`, with the subscription's renewal info and status when it has one.
    mutating func notifyAbout(_ payload: TransactionPayload, _ type: NotificationPayload.NotificationType, into outbox: inout Outbox)
        throws(StoreModelError) {
        if payload.type == .autoRenewableSubscription, let subscription = world.subscriptions[payload.originalTransactionID] {
            try notify(type, transaction: payload, renewal: renewalInfo(of: subscription), status: status(of: subscription), into: &outbox)
        } else {
            try notify(type, transaction: payload, into: &outbox)
        }
    }

    /// Apple refunds transaction `id`: a new version with `revocationDate`, `revocationReason`, and
    /// `revocationType` `REFUND_FULL` or `REFUND_PRORATED` with `revocationPercentage` (milliunits); the device gets it
    /// through `Transaction.updates`, the server `REFUND`. Refunding a subscription's current period revokes the
    /// subscription (status 5) and Apple turns its auto-renew off. Family members lose what they had of it (`REVOKE`,
    /// their `revocationReason` the purchaser's).
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (REFUND, REVOKE,
    /// DID_CHANGE_RENEWAL_STATUS: "the App Store disabled subscription auto-renewal after the customer requested a refund")
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationtype
    /// https://developer.apple.com/documentation/appstoreserverapi/revocationreason
    /// https://developer.apple.com/documentation/appstoreservernotifications/status (5: refunded or revoked)
    mutating func refund(transactionID id: String, percentage: Int?, into outbox: inout Outbox) throws(StoreModelError) {
        var (payload, subscription) = try refundable(id)
        guard payload.revocationDate == nil else { throw StoreModelError("transaction \(id) is already refunded or revoked") }
        if let percentage, !(1...100_000).contains(percentage) {
            throw StoreModelError("revocationPercentage \(percentage): Apple's is in milliunits, 1 to 100000")
        }
        let full = percentage == nil || percentage == 100_000
        payload.revocationDate = now
        payload.revocationReason = .otherReason
        payload.revocationPercentage = percentage ?? 100_000
        payload.revocationType = full ? .refundFull : .refundProrated
        payload.signedDate = now
        let owner = world.owners[id] ?? ""
        if var current = subscription, current.currentTransactionID == id, current.isLive {
            current.state = .revoked
            current.autoRenews = false
            current.gracePeriodExpiresDate = nil
            current.billingRetryEnds = nil
            world.subscriptions[current.originalTransactionID] = current
            subscription = current
        }
        let delivered = try deliver(payload, holder: world.holders[id] ?? owner, appleID: owner, into: &outbox)
        try notifyAbout(delivered, .refund, into: &outbox)
        if let subscription, subscription.currentTransactionID == id {
            for member in subscription.sharedCopies.keys.sorted() {
                if let copyID = subscription.sharedCopies[member] { try revokeCopy(copyID, reason: .otherReason, into: &outbox) }
            }
        }
        for member in (world.sharedCopies[id] ?? [:]).keys.sorted() {
            if let copyID = world.sharedCopies[id]?[member] { try revokeSharedTransaction(copyID, reason: .otherReason, into: &outbox) }
        }
    }

    /// Apple declines a refund request: `REFUND_DECLINED`, nothing changes.
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (REFUND_DECLINED)
    mutating func declineRefund(transactionID id: String, into outbox: inout Outbox) throws(StoreModelError) {
        let (payload, _) = try refundable(id)
        guard payload.revocationDate == nil else { throw StoreModelError("transaction \(id) is already refunded") }
        try notifyAbout(payload, .refundDeclined, into: &outbox)
    }

    /// Apple reverses a refund: a version without the revocation, `REFUND_REVERSED` ("reinstate" what was taken).
    /// A subscription whose current period it was is active again until that period's end (auto-renew stays off).
    /// Family members' revoked copies are not given back (Apple documents no notification for them).
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (REFUND_REVERSED)
    mutating func reverseRefund(transactionID id: String, into outbox: inout Outbox) throws(StoreModelError) {
        var (payload, subscription) = try refundable(id)
        guard payload.revocationDate != nil, payload.revocationType != .familyRevoke else {
            throw StoreModelError("transaction \(id) has no refund to reverse")
        }
        payload.revocationDate = nil
        payload.revocationReason = nil
        payload.revocationPercentage = nil
        payload.revocationType = nil
        payload.signedDate = now
        if var current = subscription, current.currentTransactionID == id, current.state == .revoked, let expires = payload.expiresDate {
            current.state = expires > now ? .active : .expired
            current.expiresDate = expires
            world.subscriptions[current.originalTransactionID] = current
            subscription = current
        }
        let owner = world.owners[id] ?? ""
        let delivered = try deliver(payload, holder: world.holders[id] ?? owner, appleID: owner, into: &outbox)
        try notifyAbout(delivered, .refundReversed, into: &outbox)
    }

    /// The customer asks for a refund; Apple asks the developer for consumption information: `CONSUMPTION_REQUEST`.
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (CONSUMPTION_REQUEST)
    mutating func requestConsumption(transactionID id: String, into outbox: inout Outbox) throws(StoreModelError) {
        let (payload, _) = try refundable(id)
        guard payload.revocationDate == nil else { throw StoreModelError("transaction \(id) is already refunded") }
        try notifyAbout(payload, .consumptionRequest, into: &outbox)
    }
}
