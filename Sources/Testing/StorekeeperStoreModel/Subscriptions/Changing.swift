import Foundation
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

    /// The developer extends the current period by `days` (1 to 90; at most twice in 365 days; active, purchased
    /// subscriptions only, not in a free trial): the current transaction's `expiresDate` moves, `RENEWAL_EXTENDED`; family
    /// members' copies are extended with it.
    /// Sources: https://developer.apple.com/documentation/appstoreserverapi/extend-a-subscription-renewal-date
    /// https://developer.apple.com/documentation/appstoreserverapi/extendbydays (maximum 90)
    /// https://developer.apple.com/documentation/appstoreserverapi/familysharedsubscriptionextensionineligibleerror
    /// ("automatically extends the family members' subscriptions as well")
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (RENEWAL_EXTENDED)
    mutating func extendRenewal(originalTransactionID: String, days: Int, into outbox: inout Outbox) throws(StoreModelError) {
        guard var subscription = world.subscriptions[originalTransactionID] else {
            throw StoreModelError("no subscription with original transaction id \(originalTransactionID)")
        }
        guard subscription.sharedFrom == nil else {
            throw StoreModelError("\(originalTransactionID) is a family-shared copy: Apple extends only the purchaser's subscription")
        }
        guard (1...90).contains(days) else { throw StoreModelError("an extension of \(days) days: Apple allows 1 to 90") }
        guard subscription.state == .active else {
            throw StoreModelError("subscription \(originalTransactionID) is \(subscription.state); only an active one is extended")
        }
        // Not in a free offer period; not more than twice in 365 days.
        // Source: https://developer.apple.com/documentation/appstoreserverapi/subscriptionextensionineligibleerror
        if world.transactions[subscription.currentTransactionID]?.offerDiscountType == Offer.DiscountType.freeTrial.rawValue {
            throw StoreModelError("subscription \(originalTransactionID) is in a free trial; Apple does not extend a free offer period")
        }
        let yearAgo = now.addingTimeInterval(-365 * 86_400)
        guard subscription.extensions.filter({ $0 > yearAgo }).count < 2 else {
            throw StoreModelError("subscription \(originalTransactionID) was extended twice in the last 365 days, Apple's limit")
        }
        guard var current = world.transactions[subscription.currentTransactionID], let expires = current.expiresDate else { return }
        let extended = expires.addingTimeInterval(Double(days) * 86_400)
        current.expiresDate = extended
        current.signedDate = now
        subscription.expiresDate = extended
        subscription.extensions.append(now)
        world.subscriptions[originalTransactionID] = subscription
        try deliver(current, holder: world.holders[current.transactionID] ?? subscription.account, appleID: subscription.appleID, into: &outbox)
        try announce(originalTransactionID, .renewalExtended, nil, change: .extended, into: &outbox)
    }

    /// The developer raises the price of `productID` in a way that needs consent: each live subscriber renewing into
    /// it gets `PRICE_INCREASE`/`PENDING` (`priceIncreaseStatus` 0); without consent by the renewal date the
    /// subscription expires (`EXPIRED`/`PRICE_INCREASE`, `expirationIntent` 3).
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (PRICE_INCREASE)
    /// https://developer.apple.com/documentation/appstoreserverapi/priceincreasestatus
    mutating func priceIncrease(productID: String, into outbox: inout Outbox) throws(StoreModelError) {
        let product = try product(productID)
        guard product.type == .autoRenewableSubscription else { throw StoreModelError("\(productID) is not an auto-renewable subscription") }
        let affected = world.subscriptions.values
            .filter { $0.sharedFrom == nil && $0.isLive && $0.autoRenews && $0.autoRenewProductID == productID && $0.priceIncreaseStatus == nil }
            .map(\.originalTransactionID).sorted()
        for id in affected {
            world.subscriptions[id]?.priceIncreaseStatus = 0
            try announce(id, .priceIncrease, .pending, change: .none, toFamily: false, into: &outbox)
        }
    }

    /// The subscriber consents: `PRICE_INCREASE`/`ACCEPTED`, `priceIncreaseStatus` 1; the subscription renews.
    mutating func consentToPriceIncrease(appleID: String, originalTransactionID: String, into outbox: inout Outbox) throws(StoreModelError) {
        let subscription = try purchasedSubscription(originalTransactionID, of: appleID)
        guard subscription.priceIncreaseStatus == 0 else {
            throw StoreModelError("subscription \(originalTransactionID) has no price increase waiting for consent")
        }
        world.subscriptions[originalTransactionID]?.priceIncreaseStatus = 1
        try announce(originalTransactionID, .priceIncrease, .accepted, change: .none, toFamily: false, into: &outbox)
    }
}
