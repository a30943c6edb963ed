import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperTestChain

// Storekeeper's app-level rules (docs/store-model.md, "Expected entitlements"): Apple decides what exists and
// when; these rules decide what an app account gets of it. Computed from the model's own state (the newest
// version of each transaction held, and each subscription's status), never from the messages it sent.
extension StoreModel {
    /// The entitlements of app account `account` at `now`, per docs/store-model.md.
    public func entitlements(of account: String) -> ExpectedEntitlements {
        var owned = Set<String>()
        var periods: [String: [TransactionPayload]] = [:]
        for id in world.heldBy[account] ?? [] {
            guard let payload = world.transactions[id], payload.revocationDate == nil, let product = products[payload.productID] else { continue }
            switch product.type {
            case .consumable:
                break
            case .nonConsumable:
                owned.insert(product.id)
            case .nonRenewingSubscription:
                // The catalog's term: Apple's payload has no expiresDate for a non-renewing subscription.
                if payload.purchaseDate <= now,
                   let end = SubscriptionTerm.expiration(of: product, bought: payload.purchaseDate, storeExpiration: nil), now < end {
                    owned.insert(product.id)
                }
            case .autoRenewableSubscription:
                if payload.isUpgraded != true { periods[payload.originalTransactionID, default: []].append(payload) }
            }
        }
        var listed: [ExpectedEntitlements.Subscription] = []
        for (originalID, candidates) in periods {
            guard let current = candidates.max(by: { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }),
                  let expires = current.expiresDate else { continue }
            if expires > now {
                owned.insert(current.productID)
                listed.append(.init(product: current.productID, expirationDate: expires.timeIntervalSince1970, status: "active"))
                continue
            }
            guard let subscription = world.subscriptions[originalID] else { continue }
            if subscription.state == .gracePeriod, let grace = subscription.gracePeriodExpiresDate, grace > now {
                owned.insert(current.productID)
                listed.append(.init(product: current.productID, expirationDate: grace.timeIntervalSince1970, status: "grace-period"))
            } else if subscription.state == .billingRetry || subscription.state == .gracePeriod {
                listed.append(.init(product: current.productID, expirationDate: expires.timeIntervalSince1970, status: "billing-retry"))
            }
        }
        listed.sort { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) }
        var features = Set<String>()
        for id in owned { features.formUnion(products[id]?.unlocks ?? []) }
        let net = net(of: account)
        var balances: [String: Int] = [:]
        var owed: [String: Int] = [:]
        for balance in self.balances {
            let value = net[balance, default: 0]
            balances[balance] = max(0, value)
            if value < 0 { owed[balance] = -value }
        }
        return ExpectedEntitlements(features: features.sorted(), products: owned.sorted(), balances: balances, owed: owed,
                                    subscriptions: listed)
    }

    /// Each balance's net for `account`: granted by held purchased transactions, less what refunds took back
    /// (`round(amount × revocationPercentage / 100000)`, halves up), less accepted spends.
    func net(of account: String) -> [String: Int] {
        var net: [String: Int] = [:]
        for id in world.heldBy[account] ?? [] {
            guard let payload = world.transactions[id], payload.ownership == .purchased,
                  let product = products[payload.productID], !product.grants.isEmpty else { continue }
            for grant in product.grants {
                let amount = grant.amount * payload.quantity
                var takenBack = 0
                if payload.revocationDate != nil {
                    let percentage = payload.revocationPercentage ?? 100_000
                    takenBack = (amount * percentage + 50_000) / 100_000
                }
                net[grant.balance, default: 0] += amount - takenBack
            }
        }
        for (balance, amount) in world.spent[account] ?? [:] { net[balance, default: 0] -= amount }
        return net
    }
}
