import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreModel {
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
