import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime
public import StorekeeperStoreModel

/// What a device's entitlements and the model's are compared on (docs/device-lives.md, "Comparing"):
/// features, owned products, balances, overdrawn balances, and auto-renewable subscriptions in force.
///
/// Projections, each a difference of shape, never of what is owned:
/// - balances: the queue lists balances above zero; the model lists every declared balance, zero included.
///   Both are compared without their zeros.
/// - subscriptions: the model lists each subscription `active` or in `grace-period` (its end: the period's,
///   or the grace period's, where Apple asks for "full service ... throughout the grace period":
///   https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/ingraceperiod);
///   its `billing-retry` entries grant nothing and are left out. The queue lists auto-renewable and
///   non-renewing subscriptions in force, one per product (its longest-lasting purchase): the non-renewing
///   ones are left out (the model lists them as products only), and the model's entries are reduced to the
///   latest end of each product (a subscriber who also has a family member's shared copy of it).
public struct ComparedEntitlements: Sendable, Equatable, CustomStringConvertible {
    /// Features unlocked, sorted.
    public var features: [String]
    /// Products owned, sorted.
    public var products: [String]
    /// Balances above zero.
    public var balances: [String: Int]
    /// Balances overdrawn (spent, then refunded), as positive amounts.
    public var overdrawn: [String: Int]
    /// Auto-renewable subscriptions in force: product → end, in seconds since 1970.
    public var subscriptions: [String: Double]

    /// The model's expectation for an account.
    public init(model: ExpectedEntitlements) {
        features = model.features.sorted()
        products = model.products.sorted()
        balances = model.balances.filter { $0.value != 0 }
        overdrawn = model.owed.filter { $0.value != 0 }
        var ends: [String: Double] = [:]
        for subscription in model.subscriptions where subscription.status == "active" || subscription.status == "grace-period" {
            ends[subscription.product] = max(ends[subscription.product] ?? -.infinity, subscription.expirationDate)
        }
        subscriptions = ends
    }

    /// A device's entitlements, read with its policy (which says which products renew automatically).
    public init(device: Entitlements, policy: CompiledPolicy) {
        features = device.features.sorted()
        products = device.ownedProducts.sorted()
        balances = device.balances.filter { $0.value != 0 }
        overdrawn = device.overdrawn.filter { $0.value != 0 }
        var ends: [String: Double] = [:]
        for subscription in device.activeSubscriptions {
            guard let handle = policy.product(id: subscription.productID),
                  policy.product(handle).type == .autoRenewableSubscription else { continue }
            let end = subscription.expirationDate?.timeIntervalSince1970 ?? .infinity
            ends[subscription.productID] = max(ends[subscription.productID] ?? -.infinity, end)
        }
        subscriptions = ends
    }

    /// Equal, subscription ends within a millisecond (the model stamps in milliseconds).
    public static func == (lhs: ComparedEntitlements, rhs: ComparedEntitlements) -> Bool {
        guard lhs.features == rhs.features, lhs.products == rhs.products, lhs.balances == rhs.balances, lhs.overdrawn == rhs.overdrawn,
              Set(lhs.subscriptions.keys) == Set(rhs.subscriptions.keys) else { return false }
        return lhs.subscriptions.allSatisfy { product, end in
            guard let other = rhs.subscriptions[product] else { return false }
            return end == other || abs(end - other) < 0.001
        }
    }

    /// One line, keys sorted.
    public var description: String {
        func render(_ values: [String: Int]) -> String {
            values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        }
        let subscriptions = self.subscriptions.sorted { $0.key < $1.key }.map { product, end in
            "\(product) until \(end.isFinite ? Date(timeIntervalSince1970: end).formatted(.iso8601) + String(format: " (%.3f)", end) : "never")"
        }
        return "features [\(features.joined(separator: ", "))], products [\(products.joined(separator: ", "))], "
            + "balances {\(render(balances))}, overdrawn {\(render(overdrawn))}, subscriptions [\(subscriptions.joined(separator: ", "))]"
    }

    /// What differs, field by field, for a failure report.
    public func differences(from expected: ComparedEntitlements) -> [String] {
        var lines: [String] = []
        if features != expected.features { lines.append("features: device \(features), model \(expected.features)") }
        if products != expected.products { lines.append("products: device \(products), model \(expected.products)") }
        if balances != expected.balances { lines.append("balances: device \(balances), model \(expected.balances)") }
        if overdrawn != expected.overdrawn { lines.append("overdrawn: device \(overdrawn), model \(expected.overdrawn)") }
        var sameButSubscriptions = expected
        sameButSubscriptions.subscriptions = subscriptions
        if sameButSubscriptions != expected { lines.append("subscriptions: device \(subscriptions), model \(expected.subscriptions)") }
        return lines
    }
}
