import Foundation
import StorekeeperContract
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperServerStorage

/// What a user is entitled to at an instant (`GET /v1/entitlements`), derived
/// when it is read from the newest kept version of each transaction the user
/// holds in one App Store environment, what the App Store last said of each
/// subscription, and the balances' nets, as docs/server.md ("What the server
/// grants over a purchase's life") says:
///
/// - a revoked transaction (refunded, in full or prorated, or revoked by
///   family sharing) gives no product;
/// - non-consumables: owned while an unrevoked transaction of them is held
///   (purchased or family-shared);
/// - non-renewing subscriptions: each unrevoked transaction is in force from its
///   purchase until its term ends (``SubscriptionTerm``: the catalog's
///   `duration`); owned while one is;
/// - auto-renewable subscriptions, per original transaction: the current period is
///   the unrevoked, not upgraded transaction bought last (upgraded: `isUpgraded`, or the period
///   in force when a higher level of the subscription started); `active` while it has
///   not expired, else `grace-period` (entitled) while Apple's newest status is 4 and
///   its grace period runs, else `billing-retry` (listed, not entitled) while that
///   status is 3 or 4; otherwise not listed;
/// - `features`: what the owned products unlock; consumables are never owned;
/// - `balances`: every balance the policy declares, its net when positive, else 0;
///   `owed`: the balances whose net is below zero (a refund of what was spent).
///
/// Records (`PUT /v1/records`) are the client's word and unlock nothing here.
///
/// The answer is the contract's body (StorekeeperContract's ``ServerEntitlements``),
/// which the app's client reads with the same type.
enum Entitlements {
    typealias Subscription = ServerEntitlements.Subscription

    static func derive(
        transactions: [StoredTransaction], renewals: [SubscriptionRenewal], balances nets: [String: Int], environment: String,
        policy: CompiledPolicy, now: Date
    ) -> ServerEntitlements {
        let t = now.timeIntervalSince1970
        var owned: Set<String> = []
        var periods: [String: [StoredTransaction]] = [:]
        for transaction in transactions where transaction.environment == environment && transaction.revocationDate == nil {
            guard let handle = policy.product(id: transaction.productID) else { continue }
            let product = policy.product(handle)
            switch product.type {
            case .nonConsumable:
                owned.insert(product.id)
            case .nonRenewingSubscription:
                let bought = Date(timeIntervalSince1970: transaction.purchaseDate)
                if let end = SubscriptionTerm.expiration(of: product, bought: bought, storeExpiration: nil),
                   transaction.purchaseDate <= t, t < end.timeIntervalSince1970 {
                    owned.insert(product.id)
                }
            case .autoRenewableSubscription:
                periods[transaction.originalTransactionID, default: []].append(transaction)
            case .consumable:
                break
            }
        }
        let told = Dictionary(renewals.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { first, _ in first })
        let starts = Self.starts(of: transactions, environment: environment)
        var listed: [Subscription] = []
        for (original, candidates) in periods {
            let upgraded = Self.upgradedPeriods(among: candidates, starts: starts[original] ?? [], policy: policy)
            let standing = candidates.filter { !$0.isUpgraded && !upgraded.contains($0.transactionID) }
            guard let current = standing.max(by: Self.boughtEarlier), let end = expiration(of: current, policy: policy) else { continue }
            let renewal = told[original]
            let grace = renewal?.status == SubscriptionRenewal.billingGracePeriod ? renewal?.gracePeriodExpiresDate : nil
            if end > t {
                owned.insert(current.productID)
                listed.append(Subscription(product: current.productID, expirationDate: Date(timeIntervalSince1970: end), status: .active))
            } else if let grace, grace > t {
                owned.insert(current.productID)
                listed.append(Subscription(product: current.productID, expirationDate: Date(timeIntervalSince1970: grace), status: .gracePeriod))
            } else if renewal?.status == SubscriptionRenewal.billingRetry || renewal?.status == SubscriptionRenewal.billingGracePeriod {
                listed.append(Subscription(product: current.productID, expirationDate: Date(timeIntervalSince1970: end), status: .billingRetry))
            }
        }
        var features: Set<String> = []
        for product in owned {
            guard let handle = policy.product(id: product) else { continue }
            features.formUnion(policy.product(handle).unlocks)
        }
        var all = Dictionary(uniqueKeysWithValues: policy.balances.map { ($0, 0) })
        all.merge(nets) { _, net in net }
        return ServerEntitlements(
            features: features.sorted(), balances: all.mapValues { max(0, $0) }, owed: all.filter { $0.value < 0 }.mapValues { -$0 },
            subscriptions: listed.sorted { ($0.product, $0.expirationDate) < ($1.product, $1.expirationDate) }, products: owned.sorted())
    }

    /// When each subscription's transactions (revoked ones included) started, and of which product, by original transaction.
    private static func starts(of transactions: [StoredTransaction], environment: String) -> [String: [(product: String, date: Double)]] {
        var starts: [String: [(product: String, date: Double)]] = [:]
        for transaction in transactions where transaction.environment == environment && transaction.expirationDate != nil {
            starts[transaction.originalTransactionID, default: []].append((transaction.productID, transaction.purchaseDate))
        }
        return starts
    }

    /// The periods a higher level of the subscription's group started during: an upgrade, which
    /// Apple makes at once and marks on the upgraded-from transaction (`isUpgraded`), the period
    /// in force then (of the unrevoked ones running, `isUpgraded` or not, the one bought last). A downgrade, a crossgrade at renewal
    /// or a renewal starts when the period ends, and a lower level bought while the period stood
    /// refunded is a new purchase. The server may never receive the re-signed upgraded-from
    /// transaction (the device that would post it is off, and no notification carries it), so the
    /// new period's start says it, even once that period is refunded; but a version of the period
    /// Apple signed after that start carries Apple's own `isUpgraded`, and then that decides (a
    /// period refunded when the higher level was bought, its refund reversed since, was not upgraded).
    private static func upgradedPeriods(
        among periods: [StoredTransaction], starts: [(product: String, date: Double)], policy: CompiledPolicy
    ) -> Set<String> {
        var upgraded: Set<String> = []
        for start in starts {
            guard let higher = level(of: start.product, policy: policy) else { continue }
            let running = periods.filter { period in
                guard let end = period.expirationDate else { return false }
                return period.purchaseDate < start.date && start.date < end
            }
            guard let inForce = running.max(by: boughtEarlier), let level = level(of: inForce.productID, policy: policy), higher < level
            else { continue }
            // Signed after the higher level started, the kept version's own `isUpgraded` is Apple's word on it.
            if inForce.signedDate > start.date { continue }
            upgraded.insert(inForce.transactionID)
        }
        return upgraded
    }

    /// A subscription product's level in its group (1 is the highest); nil for a product the policy does not name.
    private static func level(of product: String, policy: CompiledPolicy) -> Int? {
        policy.product(id: product).flatMap { policy.product($0).subscription?.level }
    }

    /// The period bought last; the same instant decided by the later end, then the transaction id, so that the answer never depends on order.
    private static func boughtEarlier(_ a: StoredTransaction, _ b: StoredTransaction) -> Bool {
        (a.purchaseDate, a.expirationDate ?? 0, a.transactionID) < (b.purchaseDate, b.expirationDate ?? 0, b.transactionID)
    }

    /// When a period ends: its `expiresDate`, else (a receipt that gave none) one period of the product after its purchase.
    private static func expiration(of period: StoredTransaction, policy: CompiledPolicy) -> Double? {
        if let end = period.expirationDate { return end }
        guard let handle = policy.product(id: period.productID) else { return nil }
        return SubscriptionTerm.expiration(
            of: policy.product(handle), bought: Date(timeIntervalSince1970: period.purchaseDate), storeExpiration: nil
        )?.timeIntervalSince1970
    }
}
