import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperServerStorage

/// What a user is entitled to (`GET /v1/entitlements`), derived from what the
/// storage keeps for them and the policy's products:
///
/// - `products`: non-consumables owned by an unrevoked transaction or record,
///   non-renewing subscriptions likewise while their expiry (if any) is to
///   come, and auto-renewable subscriptions in effect;
/// - `features`: what those products unlock;
/// - `subscriptions`: auto-renewable subscriptions whose state is `active` or
///   `grace-period` with an expiry to come, and those in `billing-retry` (the
///   App Store is still trying to bill, so they are listed, but their access
///   has ended: they unlock nothing);
/// - `balances`: the storage's balances (verified grants less spends), with
///   every balance the policy declares, 0 when nothing was granted.
///
/// A subscription's state comes from verified data only: a record of an
/// auto-renewable subscription (the client's word) does not put it in effect.
struct Entitlements: Encodable, Equatable {
    struct Subscription: Encodable, Equatable {
        var product: String
        var expirationDate: Double
        var status: String
    }

    var features: [String]
    var balances: [String: Int]
    var subscriptions: [Subscription]
    var products: [String]

    static func derive(
        transactions: [StoredTransaction], subscriptions states: [SubscriptionState], balances: [String: Int],
        records: [ServerRecord], policy: CompiledPolicy, now: Date
    ) -> Entitlements {
        let seconds = now.timeIntervalSince1970
        let revoked = Set(transactions.filter { $0.revocationDate != nil }.map(\.transactionID))
        var owned: Set<String> = []
        func type(of product: String) -> ProductType? { policy.product(id: product).map { policy.product($0).type } }
        func consider(product: String, expiration: Double?) {
            switch type(of: product) {
            case .nonConsumable?: owned.insert(product)
            case .nonRenewingSubscription?: if expiration.map({ $0 > seconds }) ?? true { owned.insert(product) }
            case .consumable?, .autoRenewableSubscription?, nil: break
            }
        }
        for transaction in transactions where transaction.revocationDate == nil {
            consider(product: transaction.productID, expiration: transaction.expirationDate)
        }
        for record in records where !revoked.contains(record.transactionID) {
            consider(product: record.productID, expiration: record.expirationDate)
        }
        var inEffect: [Subscription] = []
        for state in states {
            guard let expiry = state.expirationDate else { continue }
            switch state.status {
            case .active where expiry > seconds, .gracePeriod where expiry > seconds:
                owned.insert(state.productID)
                inEffect.append(Subscription(product: state.productID, expirationDate: expiry, status: state.status.rawValue))
            case .billingRetry:
                inEffect.append(Subscription(product: state.productID, expirationDate: expiry, status: state.status.rawValue))
            default:
                break
            }
        }
        var features: Set<String> = []
        for product in owned {
            guard let handle = policy.product(id: product) else { continue }
            features.formUnion(policy.product(handle).unlocks)
        }
        var allBalances = Dictionary(uniqueKeysWithValues: policy.balances.map { ($0, 0) })
        allBalances.merge(balances) { _, kept in kept }
        return Entitlements(
            features: features.sorted(), balances: allBalances,
            subscriptions: inEffect.sorted { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) },
            products: owned.sorted())
    }
}
