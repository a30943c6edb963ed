public import Foundation

/// What the user may use now: unlocked features, balances, active
/// subscriptions with their expiry, and owned products. A value: read it,
/// compare it, keep it; the queue publishes a new one when anything changes
/// (`TransactionQueue.entitlementUpdates()`).
public struct Entitlements: Sendable, Hashable {
    /// The features unlocked now.
    public let features: Set<String>
    /// Every balance with a non-zero amount.
    public let balances: [String: Int]
    /// Auto-renewable and non-renewing subscriptions in force now, by product id.
    public let activeSubscriptions: [ActiveSubscription]
    /// Products the user owns now: non-consumables, and subscriptions in force.
    public let ownedProducts: Set<String>
    /// By how much spends exceed a balance's grants, for each balance where
    /// they do (its ``balances`` entry is then 0): two devices spent the
    /// same coins kept in iCloud before they synced, or a purchase already
    /// spent was refunded. The app decides what it means (take it from the
    /// next purchase, say).
    ///
    /// For a balance kept on the server this is what the server says is
    /// `owed` (a refund took back coins already spent; later purchases pay
    /// it first).
    public let overdrawn: [String: Int]
    /// The balances kept on the server whose amount the server has not
    /// confirmed, each with what failed: reading `GET /v1/entitlements`
    /// failed (offline, a refusal, an answer that is not the documented
    /// JSON, no server transport configured), or the server's answer did not
    /// list the balance. Their ``balances`` entries are this device's own
    /// reckoning (the server's last answer less this device's spends since,
    /// or, before any answer, this device's grants less its spends): show
    /// them as unconfirmed. Empty when the server's last answer confirmed
    /// every balance it keeps; ``TransactionQueue/refreshEntitlements()``
    /// asks again.
    public let unconfirmed: [String: String]

    /// Creates entitlements.
    package init(features: Set<String> = [], balances: [String: Int] = [:], activeSubscriptions: [ActiveSubscription] = [],
                ownedProducts: Set<String> = [], overdrawn: [String: Int] = [:], unconfirmed: [String: String] = [:]) {
        self.features = features
        self.balances = balances.filter { $0.value != 0 }
        self.activeSubscriptions = activeSubscriptions.sorted { $0.productID < $1.productID }
        self.ownedProducts = ownedProducts
        self.overdrawn = overdrawn.filter { $0.value > 0 }
        self.unconfirmed = unconfirmed
    }

    /// Whether a feature is unlocked.
    public func isUnlocked(_ feature: String) -> Bool { features.contains(feature) }

    /// A balance's amount (0 for one never granted).
    public func balance(_ name: String) -> Int { balances[name] ?? 0 }

    /// By how much a balance is overdrawn (0 when it is not).
    package func overdraft(_ name: String) -> Int { overdrawn[name] ?? 0 }

    /// Whether a balance's amount is confirmed: always for one kept on the
    /// device or in iCloud; for one kept on the server, when the server's
    /// last answer gave it (see ``unconfirmed``).
    public func isConfirmed(_ name: String) -> Bool { unconfirmed[name] == nil }

    /// Whether the user owns a product now.
    package func owns(_ productID: String) -> Bool { ownedProducts.contains(productID) }
}

/// A subscription in force.
public struct ActiveSubscription: Sendable, Hashable {
    /// The product.
    public let productID: String
    /// When it ends; nil when the store gave no end (an auto-renewable
    /// subscription whose receipt gives no expiry is in force until it does).
    public let expirationDate: Date?

    /// Creates one.
    package init(productID: String, expirationDate: Date?) {
        self.productID = productID
        self.expirationDate = expirationDate
    }
}
