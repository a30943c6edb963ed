import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreModel {
    /// The subscriber changes plan within the group. Apple ranks a group's subscriptions by level (1 is the
    /// highest): an upgrade takes effect at once, starting a new period (the old transaction `isUpgraded`, its
    /// unused part refunded pro rata), `DID_CHANGE_RENEWAL_PREF`/`UPGRADE`; a downgrade takes effect at the next
    /// renewal (`autoRenewProductId` changes now), `DID_CHANGE_RENEWAL_PREF`/`DOWNGRADE`; a crossgrade (same
    /// level) takes effect at once when the durations are equal, else at the next renewal, notified without
    /// subtype; choosing the current product again cancels a pending change (`DID_CHANGE_RENEWAL_PREF` without
    /// subtype).
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (DID_CHANGE_RENEWAL_PREF)
    /// https://developer.apple.com/help/app-store-connect/manage-subscriptions/offer-auto-renewable-subscriptions
    /// (ranking: upgrade, downgrade, crossgrade) https://developer.apple.com/documentation/appstoreserverapi/isupgraded
    /// https://developer.apple.com/forums/thread/729677 (Apple: subtype omitted for a crossgrade)
    mutating func changeSubscription(appleID: String, originalTransactionID: String, to productID: String,
                                     into outbox: inout Outbox) throws(StoreModelError) {
        var subscription = try purchasedSubscription(originalTransactionID, of: appleID)
        let target = try product(productID)
        guard target.type == .autoRenewableSubscription, let targetPlace = target.subscription, targetPlace.group == subscription.group else {
            throw StoreModelError("\(productID) is not an auto-renewable subscription of group \(subscription.group)")
        }
        guard subscription.state == .active else {
            throw StoreModelError("subscription \(originalTransactionID) is \(subscription.state), not active; the model changes plan only while active")
        }
        let currentProduct = try product(subscription.productID)
        guard let currentPlace = currentProduct.subscription else { throw StoreModelError("\(currentProduct.id) has no subscription group") }
        if productID == subscription.productID {
            guard subscription.autoRenewProductID != productID else {
                throw StoreModelError("\(appleID) is already subscribed to \(productID) and renews into it")
            }
            subscription.autoRenewProductID = productID
            world.subscriptions[originalTransactionID] = subscription
            try announce(originalTransactionID, .didChangeRenewalPref, nil, change: .none, into: &outbox)
            return
        }
        let immediate = targetPlace.level < currentPlace.level
            || (targetPlace.level == currentPlace.level && targetPlace.period == currentPlace.period)
        guard immediate else {
            subscription.autoRenewProductID = productID
            world.subscriptions[originalTransactionID] = subscription
            try announce(originalTransactionID, .didChangeRenewalPref, targetPlace.level > currentPlace.level ? .downgrade : nil,
                         change: .none, into: &outbox)
            return
        }
        if world.appleIDs[appleID]?.billingFails == true {
            // An immediate change is charged now: it fails with the payment method.
            throw StoreModelError("\(appleID)'s payment method fails; the change to \(productID), charged now, does not complete")
        }
        let holder = subscription.tokenHolder ?? subscription.account
        let oldID = subscription.currentTransactionID
        if var old = world.transactions[oldID] {
            old.isUpgraded = true
            old.signedDate = now
            try deliver(old, holder: world.holders[oldID] ?? holder, appleID: appleID, into: &outbox)
        }
        let expires = try end(of: targetPlace.period.rawValue, from: now)
        let id = newTransactionID()
        let payload = TransactionPayload(
            transactionID: id, originalTransactionID: originalTransactionID, webOrderLineItemID: newWebOrderLineItemID(),
            bundleID: configuration.bundleID, productID: productID, subscriptionGroupIdentifier: subscription.group, purchaseDate: now,
            originalPurchaseDate: world.transactions[originalTransactionID]?.purchaseDate ?? now, expiresDate: expires,
            type: .autoRenewableSubscription, appAccountToken: subscription.appAccountToken, signedDate: now,
            environment: configuration.environment)
        subscription.productID = productID
        subscription.autoRenewProductID = productID
        subscription.autoRenews = true
        subscription.currentTransactionID = id
        subscription.transactionIDs.append(id)
        subscription.expiresDate = expires
        subscription.priceIncreaseStatus = nil
        subscription.offer = nil
        subscription.offerPeriodsLeft = 0
        world.subscriptions[originalTransactionID] = subscription
        try deliver(payload, holder: holder, appleID: appleID, into: &outbox)
        try announce(originalTransactionID, .didChangeRenewalPref, targetPlace.level < currentPlace.level ? .upgrade : nil,
                     change: .newPeriod(upgradedFrom: oldID), into: &outbox)
    }
}
