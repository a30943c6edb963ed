import Foundation
import StorekeeperTestChain

extension StoreModel {
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
}
