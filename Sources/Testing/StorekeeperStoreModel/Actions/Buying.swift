import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestChain

extension StoreModel {
    /// A purchase. Consumables, non-consumables and non-renewing subscriptions send the device a `PURCHASE`
    /// transaction and the server `ONE_TIME_CHARGE`; auto-renewable subscriptions are `subscribe(…)`.
    /// Sources: https://developer.apple.com/documentation/storekit/product/purchase(options:)
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (ONE_TIME_CHARGE)
    mutating func buy(_ purchase: Purchase, into outbox: inout Outbox) throws(StoreModelError) {
        let product = try product(purchase.productID)
        guard purchase.quantity >= 1 else { throw StoreModelError("quantity \(purchase.quantity) of \(product.id): at least 1") }
        // Only consumables are bought several at once; `maxQuantity` is the catalog's cap.
        // Source: https://developer.apple.com/documentation/storekit/product/purchaseoption/quantity(_:)
        if product.type != .consumable, purchase.quantity != 1 {
            throw StoreModelError("quantity \(purchase.quantity) of \(product.id): only consumables are bought more than one at a time")
        }
        if purchase.quantity > product.maxQuantity {
            throw StoreModelError("quantity \(purchase.quantity) of \(product.id): the catalog allows at most \(product.maxQuantity)")
        }
        if purchase.offer != nil, product.type != .autoRenewableSubscription {
            throw StoreModelError("an offer for \(product.id): the model redeems offers on auto-renewable subscriptions only")
        }
        if world.appleIDs[purchase.appleID]?.billingFails == true {
            // The payment does not go through: no transaction, nothing sent (the app sees a failed purchase).
            throw StoreModelError("\(purchase.appleID)'s payment method fails; the purchase of \(product.id) does not complete")
        }
        signIn(appleID: purchase.appleID, account: purchase.account)
        // appAccountToken: the UUID the app passes with the purchase; Apple returns it in the transaction.
        // Source: https://developer.apple.com/documentation/appstoreserverapi/appaccounttoken
        let token = purchase.setsAppAccountToken ? AppAccountToken.derive(fromUser: purchase.account) : nil
        if product.type == .autoRenewableSubscription {
            try subscribe(purchase, to: product, token: token, into: &outbox)
            return
        }
        if product.type == .nonConsumable, ownsUnrevoked(product.id, appleID: purchase.appleID) {
            // A non-consumable is bought once per Apple ID.
            // Source: https://developer.apple.com/documentation/storekit/product/producttype/nonconsumable
            throw StoreModelError("\(purchase.appleID) already owns the non-consumable \(product.id); it is bought once")
        }
        let id = newTransactionID()
        let payload = TransactionPayload(
            transactionID: id, bundleID: configuration.bundleID, productID: product.id, purchaseDate: now, quantity: purchase.quantity,
            type: AppStoreProductType(product.type), appAccountToken: token, signedDate: now, environment: configuration.environment)
        let delivered = try deliver(payload, holder: purchase.account, appleID: purchase.appleID, into: &outbox)
        try notify(.oneTimeCharge, transaction: delivered, into: &outbox)
        if product.type == .nonConsumable, product.familyShareable {
            for member in otherFamilyMembers(of: purchase.appleID) {
                try shareNonConsumable(purchasedID: id, with: member, into: &outbox)
            }
        }
    }

    /// Whether `appleID` has an unrevoked purchase of `productID` it bought itself.
    func ownsUnrevoked(_ productID: String, appleID: String) -> Bool {
        (world.byAppleID[appleID] ?? []).contains { id in
            guard let payload = world.transactions[id] else { return false }
            return payload.productID == productID && payload.ownership == .purchased && payload.revocationDate == nil
        }
    }

    /// The app spends `amount` of `balance` kept by the server for `account`: accepted only when the net balance
    /// covers it (docs/store-model.md, balances: Storekeeper's rule, not Apple's).
    mutating func spend(account: String, balance: String, amount: Int) throws(StoreModelError) {
        guard balances.contains(balance) else {
            throw StoreModelError("no balance '\(balance)' in the policy; its balances are \(balances.joined(separator: ", "))")
        }
        guard amount > 0 else { throw StoreModelError("a spend of \(amount) \(balance): the amount must be positive") }
        guard canSpend(account: account, balance: balance, amount: amount) else { return }
        world.spent[account, default: [:]][balance, default: 0] += amount
    }
}
