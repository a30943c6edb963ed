import Foundation
import StorekeeperStoreModel

/// The model's catalog (``StoreModelCatalog``) as an app without a server would write it, for lives of
/// devices alone: the same products, features, balances, groups and levels (so the model's expectations are
/// the same), with each product's records kept where a device can keep them.
///
/// ``StoreModelCatalog`` keeps every record on the server (`persistence: server`, `delivery: {model: server}`),
/// which a device alone cannot reach; here:
/// - delivery is `built-in`: the app unlocks and grants itself;
/// - non-consumables and auto-renewable subscriptions persist with `receipt`: on StoreKit 2 the backend's
///   receipt is `Transaction.currentEntitlements`, so a subscription's grace period reaches the device;
/// - coins persist with `app-state`: the balance is kept by the device (its grants, less its refunds' share,
///   less its spends), which is what the model's balances are for an account on one device;
/// - the season pass (non-renewing) persists and restores with `icloud` (the `non-renewing-record` rule asks
///   for `server` or `icloud`).
public enum DeviceCatalog {
    /// Why the device catalog could not be made: the model's catalog no longer reads as expected.
    public struct Mismatch: Error, Sendable, CustomStringConvertible {
        /// The text expected in ``StoreModelCatalog/yaml`` and not found.
        public var missing: String
        public var description: String {
            "StoreModelCatalog.yaml no longer contains \(missing.debugDescription): update DeviceCatalog's rewrite to match it"
        }
    }

    /// The rewrites, in order: each `from` must appear in the model's catalog.
    static let rewrites: [(from: String, to: String)] = [
        ("defaults:\n  persistence: server\n  restore: server\n", "defaults:\n  persistence: receipt\n  restore: receipt-refresh\n"),
        ("delivery: {model: server, ", "delivery: {model: built-in, "),
        ("    restore: none\n", "    restore: none\n    persistence: app-state\n"),
        ("    type: non-renewing-subscription\n", "    type: non-renewing-subscription\n    persistence: icloud\n    restore: icloud\n"),
    ]

    /// The device catalog's YAML, or why the model's catalog cannot be rewritten.
    public static func yaml() throws(Mismatch) -> String {
        var text = StoreModelCatalog.yaml
        for rewrite in rewrites {
            guard text.contains(rewrite.from) else { throw Mismatch(missing: rewrite.from) }
            text = text.replacingOccurrences(of: rewrite.from, with: rewrite.to)
        }
        return text
    }
}
