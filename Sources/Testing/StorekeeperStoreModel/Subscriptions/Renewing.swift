import Foundation
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreModel {
    /// The next thing the App Store does on its own, no later than `date`: the earliest period end, grace period
    /// end or billing retry end among purchased subscriptions (family copies follow their purchaser's).
    func nextScheduledEvent(notAfter date: Date) -> (Date, String)? {
        var next: (Date, String)?
        for (id, subscription) in world.subscriptions where subscription.sharedFrom == nil {
            let instant: Date?
            switch subscription.state {
            case .active: instant = subscription.expiresDate
            case .gracePeriod: instant = subscription.gracePeriodExpiresDate
            case .billingRetry: instant = subscription.billingRetryEnds
            case .expired, .revoked: instant = nil
            }
            guard let instant, instant <= date else { continue }
            if let current = next, (current.0, current.1) <= (instant, id) { continue }
            next = (instant, id)
        }
        return next
    }

    /// What happens when the subscription's scheduled instant comes.
    mutating func runScheduledEvent(of id: String, into outbox: inout Outbox) throws(StoreModelError) {
        guard var subscription = world.subscriptions[id] else { return }
        switch subscription.state {
        case .active:
            if subscription.priceIncreaseStatus == 0 {
                // Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
                // (EXPIRED/PRICE_INCREASE: "the customer didn't consent to a price increase that requires consent")
                // https://developer.apple.com/documentation/appstoreserverapi/expirationintent (3)
                try expire(id, .priceIncrease, intent: .declinedPriceIncrease, into: &outbox)
            } else if !subscription.autoRenews {
                // EXPIRED/VOLUNTARY: "the subscription expired after the customer turned off subscription renewal".
                try expire(id, .voluntary, intent: .customerCancelled, into: &outbox)
            } else if world.appleIDs[subscription.appleID]?.billingFails == true {
                try failToRenew(id, into: &outbox)
            } else {
                try renew(id, startingAt: subscription.expiresDate, recovery: false, into: &outbox)
            }
        case .gracePeriod:
            // GRACE_PERIOD_EXPIRED: the grace period ended without a renewal; billing retry goes on (status 3).
            // Source: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
            subscription.state = .billingRetry
            world.subscriptions[id] = subscription
            try announce(id, .gracePeriodExpired, nil, change: .none, into: &outbox)
        case .billingRetry:
            // EXPIRED/BILLING_RETRY: the billing retry period ended without a successful billing transaction.
            try expire(id, .billingRetry, intent: .billingError, into: &outbox)
        case .expired, .revoked:
            break
        }
    }

    /// The subscription ends: `EXPIRED` with `subtype`, status 2, renewal info's `expirationIntent`.
    mutating func expire(_ id: String, _ subtype: NotificationPayload.Subtype?, intent: RenewalInfoPayload.ExpirationIntent,
                         into outbox: inout Outbox) throws(StoreModelError) {
        guard var subscription = world.subscriptions[id] else { return }
        subscription.state = .expired
        subscription.expirationIntent = intent
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEnds = nil
        subscription.priceIncreaseStatus = nil
        world.subscriptions[id] = subscription
        try announce(id, .expired, subtype, change: .none, into: &outbox)
    }

    /// A new period: a `RENEWAL` transaction of the auto-renew product (a pending downgrade or crossgrade takes
    /// effect here) from `start`, then `DID_RENEW` (subtype `BILLING_RECOVERY` after a failed renewal), status 1.
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (DID_RENEW)
    /// https://developer.apple.com/documentation/appstoreserverapi/transactionreason
    mutating func renew(_ id: String, startingAt start: Date, recovery: Bool, into outbox: inout Outbox) throws(StoreModelError) {
        guard var subscription = world.subscriptions[id] else { return }
        let product = try product(subscription.autoRenewProductID)
        let offer = subscription.offerPeriodsLeft > 0 ? subscription.offer : nil
        let productPeriod = try period(of: product)
        let expires = try end(of: offer?.period ?? productPeriod, from: start)
        let transactionID = newTransactionID()
        let originalPurchaseDate = world.transactions[id]?.purchaseDate ?? start
        let payload = TransactionPayload(
            transactionID: transactionID, originalTransactionID: id, webOrderLineItemID: newWebOrderLineItemID(), bundleID: configuration.bundleID,
            productID: product.id, subscriptionGroupIdentifier: subscription.group, purchaseDate: start, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expires, type: .autoRenewableSubscription, appAccountToken: subscription.appAccountToken, signedDate: now,
            environment: configuration.environment, reason: .renewal, offerType: offer?.kind.rawValue, offerIdentifier: offer?.identifier,
            offerDiscountType: offer?.discountType.rawValue)
        if offer != nil { subscription.offerPeriodsLeft -= 1 }
        subscription.productID = product.id
        subscription.state = .active
        subscription.currentTransactionID = transactionID
        subscription.transactionIDs.append(transactionID)
        subscription.expiresDate = expires
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEnds = nil
        subscription.expirationIntent = nil
        // The consented price applies from this renewal on.
        if subscription.priceIncreaseStatus == 1 { subscription.priceIncreaseStatus = nil }
        world.subscriptions[id] = subscription
        let holder = subscription.tokenHolder ?? subscription.account
        try deliver(payload, holder: holder, appleID: subscription.appleID, into: &outbox)
        try announce(id, .didRenew, recovery ? .billingRecovery : nil, change: .newPeriod(upgradedFrom: nil), into: &outbox)
    }

    /// The subscription `id` that `appleID` bought (not a family-shared copy), or an error saying why not.
    func purchasedSubscription(_ id: String, of appleID: String) throws(StoreModelError) -> StoreWorld.Subscription {
        guard let subscription = world.subscriptions[id] else { throw StoreModelError("no subscription with original transaction id \(id)") }
        guard subscription.appleID == appleID else {
            throw StoreModelError("subscription \(id) belongs to \(subscription.appleID), not \(appleID)")
        }
        guard subscription.sharedFrom == nil else {
            throw StoreModelError("subscription \(id) is a family-shared copy; only its purchaser (\(subscription.sharedFrom ?? "")) manages it")
        }
        return subscription
    }
}
