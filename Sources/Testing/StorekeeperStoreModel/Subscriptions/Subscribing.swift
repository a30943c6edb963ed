import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreWorld.Subscription {
    /// Entitled or trying to be: active, in grace period or in billing retry.
    var isLive: Bool { state == .active || state == .gracePeriod || state == .billingRetry }

    init(originalTransactionID: String, appleID: String, account: String, group: String, productID: String, expiresDate: Date,
         appAccountToken: UUID?, start: Date, sharedFrom: String?) {
        self.originalTransactionID = originalTransactionID
        self.appleID = appleID
        self.account = account
        self.group = group
        self.productID = productID
        autoRenewProductID = productID
        autoRenews = true
        state = .active
        currentTransactionID = originalTransactionID
        self.expiresDate = expiresDate
        gracePeriodExpiresDate = nil
        billingRetryEnds = nil
        priceIncreaseStatus = nil
        self.sharedFrom = sharedFrom
        transactionIDs = []
        self.appAccountToken = appAccountToken
        tokenHolder = nil
        recentStart = start
        expirationIntent = nil
        offer = nil
        offerPeriodsLeft = 0
        extensions = []
        sharedCopies = [:]
    }
}

extension StoreModel {
    /// `period` (ISO 8601) after `date`, in UTC calendar arithmetic.
    func end(of period: String, from date: Date) throws(StoreModelError) -> Date {
        guard let end = SubscriptionTerm.add(period, to: date), end > date else {
            throw StoreModelError("'\(period)' is not a period the model can add (ISO 8601 years, months, weeks or days, not zero)")
        }
        return end
    }

    /// The product's renewal period (`P1M`).
    func period(of product: ProductPolicy) throws(StoreModelError) -> String {
        guard let period = product.subscription?.period.rawValue else {
            throw StoreModelError("\(product.id) has no subscription period in the policy")
        }
        return period
    }

    /// A subscription purchase: the first in its group for the Apple ID (`SUBSCRIBED`/`INITIAL_BUY`), again after
    /// it expired (`RESUBSCRIBE`, same `originalTransactionId`), or with a promotional, offer-code or win-back offer
    /// (`OFFER_REDEEMED` with the same subtypes). Buying another product of the group while subscribed changes plan.
    /// Sources: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (SUBSCRIBED, OFFER_REDEEMED)
    /// https://developer.apple.com/documentation/appstoreserverapi/originaltransactionid
    /// https://developer.apple.com/documentation/storekit/implementing-introductory-offers-in-your-app (eligibility)
    mutating func subscribe(_ purchase: Purchase, to product: ProductPolicy, token: UUID?, into outbox: inout Outbox) throws(StoreModelError) {
        guard let group = product.subscription?.group else { throw StoreModelError("\(product.id) has no subscription group in the policy") }
        let existing = world.subscription(of: purchase.appleID, inGroup: group)
        if let existing, existing.isLive {
            if purchase.offer != nil {
                throw StoreModelError("an offer on the live subscription \(existing.originalTransactionID): the model redeems offers on new subscriptions only")
            }
            if existing.productID == product.id {
                throw StoreModelError("\(purchase.appleID) is already subscribed to \(product.id) (\(existing.originalTransactionID))")
            }
            try changeSubscription(appleID: purchase.appleID, originalTransactionID: existing.originalTransactionID, to: product.id, into: &outbox)
            return
        }
        let subscribedBefore = world.appleIDs[purchase.appleID]?.subscribedGroups.contains(group) ?? false
        if let offer = purchase.offer {
            switch offer.kind {
            case .introductory where subscribedBefore:
                // Source: https://developer.apple.com/documentation/storekit/product/subscriptioninfo/isEligibleForIntroOffer
                throw StoreModelError("\(purchase.appleID) is not eligible for an introductory offer in \(group): it subscribed before")
            case .winBack where existing == nil:
                // Source: https://developer.apple.com/documentation/storekit/supporting-win-back-offers-in-your-app
                throw StoreModelError("a win-back offer is for lapsed subscribers; \(purchase.appleID) never subscribed to \(group)")
            case .promotional where !subscribedBefore:
                // Source: https://developer.apple.com/documentation/storekit/implementing-promotional-offers-in-your-app
                throw StoreModelError("a promotional offer is for current or past subscribers; \(purchase.appleID) never subscribed to \(group)")
            default: break
            }
            guard offer.periods >= 1 else { throw StoreModelError("an offer of \(offer.periods) periods: at least 1") }
        }
        let productPeriod = try period(of: product)
        let firstPeriod = purchase.offer?.period ?? productPeriod
        let expires = try end(of: firstPeriod, from: now)
        let id = newTransactionID()
        let originalID = existing?.originalTransactionID ?? id
        let originalPurchaseDate = existing.flatMap { world.transactions[$0.originalTransactionID]?.purchaseDate } ?? now
        let payload = TransactionPayload(
            transactionID: id, originalTransactionID: originalID, webOrderLineItemID: newWebOrderLineItemID(), bundleID: configuration.bundleID,
            productID: product.id, subscriptionGroupIdentifier: group, purchaseDate: now, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expires, type: .autoRenewableSubscription, appAccountToken: token, signedDate: now,
            environment: configuration.environment, offerType: purchase.offer?.kind.rawValue, offerIdentifier: purchase.offer?.identifier,
            offerDiscountType: purchase.offer?.discountType.rawValue)
        // Ownership follows the original transaction unless the purchase names an app account (docs/store-model.md).
        let holder = token != nil ? purchase.account : (existing?.account ?? purchase.account)
        var subscription = existing ?? StoreWorld.Subscription(
            originalTransactionID: originalID, appleID: purchase.appleID, account: holder, group: group, productID: product.id,
            expiresDate: expires, appAccountToken: token, start: now, sharedFrom: nil)
        subscription.productID = product.id
        subscription.autoRenewProductID = product.id
        subscription.autoRenews = true
        subscription.state = .active
        subscription.currentTransactionID = id
        subscription.expiresDate = expires
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEnds = nil
        subscription.priceIncreaseStatus = nil
        subscription.appAccountToken = token
        subscription.tokenHolder = token == nil ? nil : purchase.account
        subscription.recentStart = now
        subscription.expirationIntent = nil
        subscription.offer = (purchase.offer?.periods ?? 1) > 1 ? purchase.offer : nil
        subscription.offerPeriodsLeft = (purchase.offer?.periods ?? 1) - 1
        subscription.extensions = existing?.extensions ?? []
        subscription.transactionIDs.append(id)
        world.subscriptions[originalID] = subscription
        world.subscriptionByGroup[purchase.appleID + " " + group] = originalID
        world.appleIDs[purchase.appleID]?.subscribedGroups.insert(group)
        try deliver(payload, holder: holder, appleID: purchase.appleID, into: &outbox)
        let redeemsOffer = purchase.offer.map { $0.kind != .introductory } ?? false
        try announce(originalID, redeemsOffer ? .offerRedeemed : .subscribed, existing == nil ? .initialBuy : .resubscribe,
                     change: .newPeriod(upgradedFrom: nil), into: &outbox)
    }

    /// The subscription's renewal information now (`JWSRenewalInfoDecodedPayload`).
    /// Sources: https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload
    /// https://developer.apple.com/documentation/appstoreserverapi/renewaldate (the current period's end)
    /// https://developer.apple.com/documentation/appstoreserverapi/isinbillingretryperiod (true while Apple retries;
    /// false once it gave up; left out otherwise)
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/isinbillingretry
    /// ("If a subscription expires due to a billing issue, … true indicates that Apple is still trying": so the
    /// expiration reason is already a billing error while retrying)
    /// https://developer.apple.com/documentation/appstoreserverapi/graceperiodexpiresdate
    func renewalInfo(of subscription: StoreWorld.Subscription) -> RenewalInfoPayload {
        let offer = subscription.offerPeriodsLeft > 0 ? subscription.offer : nil
        return RenewalInfoPayload(
            originalTransactionID: subscription.originalTransactionID, productID: subscription.productID,
            autoRenewProductID: subscription.autoRenewProductID, autoRenews: subscription.autoRenews,
            expirationIntent: subscription.expirationIntent,
            isInBillingRetryPeriod: subscription.state == .gracePeriod || subscription.state == .billingRetry
                ? true : (subscription.expirationIntent == .billingError ? false : nil),
            gracePeriodExpiresDate: subscription.state == .gracePeriod ? subscription.gracePeriodExpiresDate : nil, signedDate: now,
            environment: configuration.environment, recentSubscriptionStartDate: subscription.recentStart, renewalDate: subscription.expiresDate,
            appAccountToken: subscription.appAccountToken, priceIncreaseStatus: subscription.priceIncreaseStatus,
            offerType: offer?.kind.rawValue, offerIdentifier: offer?.identifier, offerDiscountType: offer?.discountType.rawValue)
    }

    /// `data.status` for the subscription now.
    /// Source: https://developer.apple.com/documentation/appstoreservernotifications/status
    func status(of subscription: StoreWorld.Subscription) -> NotificationPayload.SubscriptionStatus {
        NotificationPayload.SubscriptionStatus(rawValue: subscription.state.rawValue) ?? .expired
    }
}
