import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperStoreModel
import StorekeeperTestChain

/// docs/store-model.md's entitlement rules computed from the model's *messages* alone, as a server that receives
/// every message once and in order would: if it disagrees with `StoreModel.entitlements(of:)` (computed from the
/// model's state), the messages do not say what the model believes, and no server could agree with the model.
struct MessageLedger {
    let products: [String: ProductPolicy]
    let balances: [String]
    /// Derived appAccountToken → app account, for the accounts a life uses.
    let tokens: [UUID: String]
    var newest: [String: TransactionPayload] = [:]
    var holders: [String: String] = [:]
    var originalHolders: [String: String] = [:]
    /// Per original transaction id: the newest-signed notification's date, status and renewal info's grace end.
    var statuses: [String: (signed: Date, status: Int, graceEnds: Date?)] = [:]
    var spent: [String: [String: Int]] = [:]

    init(policy: CompiledPolicy, accounts: [String]) {
        var products: [String: ProductPolicy] = [:]
        for product in policy.products { products[product.id] = product }
        self.products = products
        balances = policy.balances
        var tokens: [UUID: String] = [:]
        for account in accounts { tokens[AppAccountToken.derive(fromUser: account)] = account }
        self.tokens = tokens
    }

    mutating func receive(_ message: StoreMessage) {
        switch message {
        case .transaction(let transaction):
            keep(transaction.payload)
            let payload = transaction.payload
            guard holders[payload.transactionID] == nil else { return }
            let holder = payload.appAccountToken.flatMap { tokens[$0] } ?? originalHolders[payload.originalTransactionID] ?? transaction.account
            holders[payload.transactionID] = holder
            if originalHolders[payload.originalTransactionID] == nil { originalHolders[payload.originalTransactionID] = holder }
        case .notification(let notification):
            guard let transaction = notification.transaction else { return }
            keep(transaction)
            if let status = notification.payload.status {
                let id = transaction.originalTransactionID
                if statuses[id].map({ $0.signed < notification.payload.signedDate }) ?? true {
                    statuses[id] = (notification.payload.signedDate, status.rawValue, notification.renewal?.gracePeriodExpiresDate)
                }
            }
        }
    }

    mutating func keep(_ payload: TransactionPayload) {
        if newest[payload.transactionID].map({ $0.signedDate < payload.signedDate }) ?? true { newest[payload.transactionID] = payload }
    }

    func entitlements(of account: String, at now: Date) -> ExpectedEntitlements {
        var owned = Set<String>()
        var periods: [String: [TransactionPayload]] = [:]
        var net: [String: Int] = [:]
        for (id, holder) in holders where holder == account {
            guard let payload = newest[id], let product = products[payload.productID] else { continue }
            if payload.ownership == .purchased {
                for grant in product.grants {
                    let amount = grant.amount * payload.quantity
                    let taken = payload.revocationDate == nil ? 0 : (amount * (payload.revocationPercentage ?? 100_000) + 50_000) / 100_000
                    net[grant.balance, default: 0] += amount - taken
                }
            }
            guard payload.revocationDate == nil else { continue }
            switch product.type {
            case .consumable: break
            case .nonConsumable: owned.insert(product.id)
            case .nonRenewingSubscription:
                if let end = SubscriptionTerm.expiration(of: product, bought: payload.purchaseDate, storeExpiration: nil),
                   payload.purchaseDate <= now, now < end { owned.insert(product.id) }
            case .autoRenewableSubscription:
                if payload.isUpgraded != true { periods[payload.originalTransactionID, default: []].append(payload) }
            }
        }
        var listed: [ExpectedEntitlements.Subscription] = []
        for (originalID, candidates) in periods {
            guard let current = candidates.max(by: { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }),
                  let expires = current.expiresDate else { continue }
            let status = statuses[originalID]
            if expires > now {
                owned.insert(current.productID)
                listed.append(.init(product: current.productID, expirationDate: expires.timeIntervalSince1970, status: "active"))
            } else if status?.status == 4, let grace = status?.graceEnds, grace > now {
                owned.insert(current.productID)
                listed.append(.init(product: current.productID, expirationDate: grace.timeIntervalSince1970, status: "grace-period"))
            } else if status?.status == 3 || status?.status == 4 {
                listed.append(.init(product: current.productID, expirationDate: expires.timeIntervalSince1970, status: "billing-retry"))
            }
        }
        listed.sort { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) }
        for (balance, amount) in spent[account] ?? [:] { net[balance, default: 0] -= amount }
        var balances: [String: Int] = [:]
        var owed: [String: Int] = [:]
        for balance in self.balances {
            let value = net[balance, default: 0]
            balances[balance] = max(0, value)
            if value < 0 { owed[balance] = -value }
        }
        let features = Set(owned.flatMap { products[$0]?.unlocks ?? [] })
        return ExpectedEntitlements(features: features.sorted(), products: owned.sorted(), balances: balances, owed: owed, subscriptions: listed)
    }
}
