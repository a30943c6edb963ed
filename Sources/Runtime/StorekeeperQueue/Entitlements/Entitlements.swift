import Foundation

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
    public let overdrawn: [String: Int]

    /// Creates entitlements.
    public init(features: Set<String> = [], balances: [String: Int] = [:], activeSubscriptions: [ActiveSubscription] = [],
                ownedProducts: Set<String> = [], overdrawn: [String: Int] = [:]) {
        self.features = features
        self.balances = balances.filter { $0.value != 0 }
        self.activeSubscriptions = activeSubscriptions.sorted { $0.productID < $1.productID }
        self.ownedProducts = ownedProducts
        self.overdrawn = overdrawn.filter { $0.value > 0 }
    }

    /// Whether a feature is unlocked.
    public func isUnlocked(_ feature: String) -> Bool { features.contains(feature) }

    /// A balance's amount (0 for one never granted).
    public func balance(_ name: String) -> Int { balances[name] ?? 0 }

    /// By how much a balance is overdrawn (0 when it is not).
    public func overdraft(_ name: String) -> Int { overdrawn[name] ?? 0 }

    /// Whether the user owns a product now.
    public func owns(_ productID: String) -> Bool { ownedProducts.contains(productID) }
}

/// A subscription in force.
public struct ActiveSubscription: Sendable, Hashable {
    /// The product.
    public let productID: String
    /// When it ends; nil when the store gave no end (an auto-renewable
    /// subscription whose receipt gives no expiry is in force until it does).
    public let expirationDate: Date?

    /// Creates one.
    public init(productID: String, expirationDate: Date?) {
        self.productID = productID
        self.expirationDate = expirationDate
    }
}
