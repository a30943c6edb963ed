import Foundation
import StorekeeperTestChain

extension StoreModel {
    /// The subscriber turns auto-renew on or off: `DID_CHANGE_RENEWAL_STATUS` with `AUTO_RENEW_ENABLED` or
    /// `AUTO_RENEW_DISABLED`. Turned off in grace period or billing retry, Apple stops retrying (it retries "until
    /// the customer … cancels their subscription"), so the subscription expires at once (`EXPIRED`/`VOLUNTARY`).
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
    /// https://developer.apple.com/documentation/storekit/reducing-involuntary-subscriber-churn
    mutating func setAutoRenew(appleID: String, originalTransactionID: String, on: Bool, into outbox: inout Outbox) throws(StoreModelError) {
        var subscription = try purchasedSubscription(originalTransactionID, of: appleID)
        guard subscription.isLive else {
            throw StoreModelError("subscription \(originalTransactionID) has \(subscription.state); auto-renew changes only while it is live")
        }
        guard subscription.autoRenews != on else { return }
        subscription.autoRenews = on
        world.subscriptions[originalTransactionID] = subscription
        try announce(originalTransactionID, .didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled, change: .none, into: &outbox)
        if !on, subscription.state != .active {
            try expire(originalTransactionID, .voluntary, intent: .customerCancelled, into: &outbox)
        }
    }
}
