/// The four kinds of in-app purchase product.
public enum ProductType: String, CaseIterable, Hashable, Sendable {
    /// Used up and bought again (coins, hints); not restored.
    case consumable
    /// Bought once, kept forever, restorable.
    case nonConsumable = "non-consumable"
    /// Renews every period until cancelled; part of a subscription group.
    case autoRenewableSubscription = "auto-renewable-subscription"
    /// Lasts a fixed duration; the app tracks expiry and restoring.
    case nonRenewingSubscription = "non-renewing-subscription"
}
