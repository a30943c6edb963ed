import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreModel

/// The device's `entitlements()` in the model's terms, for comparison with the model's expectation (and so
/// with the server's `GET /v1/entitlements`, which the driver compares with the same expectation):
///
/// - features and products (`ownedProducts`), sorted;
/// - balances (every balance here is kept on the server, so the device shows the server's word) and
///   `overdrawn` as the model's `owed`;
/// - subscriptions: the device lists what is in force (`activeSubscriptions`: product and end), without a
///   status, so it is compared with the model's `active` and `grace-period` entries (a `billing-retry`
///   entry entitles to nothing and the device does not list it); a grace period's end is the end the
///   device shows (StoreKit 2's `gracePeriodExpirationDate`), as it is the model's. The device keeps one
///   entry per product (the latest end), the model one per subscription: the model's are taken per product
///   the same way. Non-renewing passes are
///   in force on the device too, but the model lists only auto-renewable subscriptions: they are compared
///   as products.
/// - a balance the device could not confirm with the server (`unconfirmed`) is a difference of its own:
///   at a checkpoint the server is up, so the device must have read it.
enum DeviceEntitlements {
    /// The members where the device's `shown` differs from the model's `expected`; empty when they agree.
    static func differences(expected: ExpectedEntitlements, shown: Entitlements, policy: CompiledPolicy) -> [String] {
        var members: [String] = []
        if expected.features.sorted() != shown.features.sorted() { members.append("features") }
        if expected.products.sorted() != shown.ownedProducts.sorted() { members.append("products") }
        if expected.balances.filter({ $0.value != 0 }) != shown.balances.filter({ $0.value != 0 }) { members.append("balances") }
        if expected.owed.filter({ $0.value != 0 }) != shown.overdrawn.filter({ $0.value != 0 }) { members.append("owed") }
        if expectedSubscriptions(expected) != shownSubscriptions(shown, policy: policy) { members.append("subscriptions") }
        if !shown.unconfirmed.isEmpty { members.append("unconfirmed") }
        return members
    }

    /// The model's subscriptions in force, `product until milliseconds`, sorted: one per product, the
    /// latest end, as the device keeps them (`activeSubscriptions` is by product; the model lists each
    /// subscription, so a person's own and a family-shared subscription of one product are two there).
    static func expectedSubscriptions(_ expected: ExpectedEntitlements) -> [String] {
        var ends: [String: Double] = [:]
        for subscription in expected.subscriptions where subscription.status == "active" || subscription.status == "grace-period" {
            ends[subscription.product] = max(ends[subscription.product] ?? -.infinity, subscription.expirationDate)
        }
        return ends.map { "\($0.key) until \(milliseconds($0.value))" }.sorted()
    }

    /// The device's auto-renewable subscriptions in force, `product until milliseconds`, sorted.
    static func shownSubscriptions(_ shown: Entitlements, policy: CompiledPolicy) -> [String] {
        shown.activeSubscriptions
            .filter { subscription in
                policy.product(id: subscription.productID).map { policy.product($0).type == .autoRenewableSubscription } ?? true
            }
            .map { "\($0.productID) until \($0.expirationDate.map { String(milliseconds($0.timeIntervalSince1970)) } ?? "no end")" }
            .sorted()
    }

    /// The device's entitlements in one line, as the model's are written.
    static func describe(_ shown: Entitlements, policy: CompiledPolicy) -> String {
        let balances = shown.balances.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let owed = shown.overdrawn.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let unconfirmed = shown.unconfirmed.isEmpty
            ? "" : ", unconfirmed {" + shown.unconfirmed.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") + "}"
        return "features [\(shown.features.sorted().joined(separator: ", "))], products [\(shown.ownedProducts.sorted().joined(separator: ", "))], "
            + "balances {\(balances)}, owed {\(owed)}, subscriptions [\(shownSubscriptions(shown, policy: policy).joined(separator: ", "))]"
            + unconfirmed
    }

    /// Seconds since 1970 to whole milliseconds (Apple's unit).
    static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1_000).rounded()) }
}
