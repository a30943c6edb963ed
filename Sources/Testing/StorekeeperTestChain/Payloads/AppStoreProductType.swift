public import StorekeeperCore

/// A product's type as the App Store's payloads write it (a transaction's `type`).
public enum AppStoreProductType: String, Sendable, Hashable, CaseIterable {
    /// `Consumable`.
    case consumable = "Consumable"
    /// `Non-Consumable`.
    case nonConsumable = "Non-Consumable"
    /// `Auto-Renewable Subscription`.
    case autoRenewableSubscription = "Auto-Renewable Subscription"
    /// `Non-Renewing Subscription`.
    case nonRenewingSubscription = "Non-Renewing Subscription"

    /// The App Store's name for a catalog's product type.
    public init(_ type: ProductType) {
        switch type {
        case .consumable: self = .consumable
        case .nonConsumable: self = .nonConsumable
        case .autoRenewableSubscription: self = .autoRenewableSubscription
        case .nonRenewingSubscription: self = .nonRenewingSubscription
        }
    }
}
