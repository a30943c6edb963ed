import Foundation
import StorekeeperTestChain

extension StoreModel {
    /// A renewal fails for billing. With App Store Connect's billing grace period on, the subscriber keeps
    /// access until `gracePeriodExpiresDate` = the period's end + the grace days (`DID_FAIL_TO_RENEW`/`GRACE_PERIOD`,
    /// status 4); without it, `DID_FAIL_TO_RENEW` without subtype, status 3. Either way Apple retries billing for
    /// up to 60 days.
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (DID_FAIL_TO_RENEW)
    /// https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions
    /// https://developer.apple.com/documentation/storekit/reducing-involuntary-subscriber-churn (60 days)
    mutating func failToRenew(_ id: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard var subscription = world.subscriptions[id] else { return }
        let failedAt = subscription.expiresDate
        subscription.expirationIntent = .billingError
        subscription.billingRetryEnds = failedAt.addingTimeInterval(60 * 86_400)
        if let days = configuration.billingGracePeriodDays, days > 0 {
            subscription.state = .gracePeriod
            subscription.gracePeriodExpiresDate = failedAt.addingTimeInterval(Double(days) * 86_400)
            world.subscriptions[id] = subscription
            try announce(id, .didFailToRenew, .gracePeriod, change: .none, into: &outbox)
        } else {
            subscription.state = .billingRetry
            world.subscriptions[id] = subscription
            try announce(id, .didFailToRenew, nil, change: .none, into: &outbox)
        }
    }

    /// The Apple ID's payment method starts failing: renewals from now fail.
    mutating func billingFails(appleID: String) {
        touch(appleID: appleID)
        world.appleIDs[appleID]?.billingFails = true
    }

    /// The payment method works again: every subscription of the Apple ID in grace period or billing retry renews
    /// now (`DID_RENEW`/`BILLING_RECOVERY`). Recovered inside the grace period, the paid days are not interrupted
    /// (the new period starts at the old period's end); recovered in billing retry after it (or without grace
    /// period), the paid days paused, so the new period starts at the recovery.
    /// Source: https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions
    /// ("There won't be any interruption to the subscriber's days of paid service … if Apple recovers the subscription
    /// within the grace period. Without … Billing Grace Period, the subscriber's days of paid service pause until
    /// Apple is able to collect payment.")
    mutating func billingRecovers(appleID: String, into outbox: inout Outbox) throws(StoreModelError) {
        touch(appleID: appleID)
        world.appleIDs[appleID]?.billingFails = false
        let recovering = world.subscriptions.values
            .filter { $0.appleID == appleID && $0.sharedFrom == nil && ($0.state == .gracePeriod || $0.state == .billingRetry) }
            .sorted { $0.originalTransactionID < $1.originalTransactionID }
        for subscription in recovering {
            let start = subscription.state == .gracePeriod ? subscription.expiresDate : now
            try renew(subscription.originalTransactionID, startingAt: start, recovery: true, into: &outbox)
        }
    }
}
