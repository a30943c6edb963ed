import StorekeeperCatalog
import StorekeeperCore

/// What an imported product gets for what a StoreKit configuration file does
/// not say (who delivers it, where the purchase is recorded, how it is
/// restored): the In-App Purchase guide's defaults for its type, with why.
struct ImportDefaults {
    /// `delivery`, as the catalog writes it.
    var delivery: String
    /// `persistence`.
    var persistence: String
    /// `restore`.
    var restore: String
    /// Why, for the note and the YAML comments.
    var reason: String

    /// The defaults for a product type.
    static func forType(_ type: ProductType) -> ImportDefaults {
        switch type {
        case .consumable:
            ImportDefaults(
                delivery: "built-in", persistence: "app-state", restore: "none",
                reason: "a consumable is used up: the app keeps it in its own state, and it is never restored (Delivering Products: Persisting the Purchase; Restoring Purchased Products)")
        case .nonConsumable:
            ImportDefaults(
                delivery: "built-in", persistence: "receipt", restore: "receipt-refresh",
                reason: "the app receipt is the record of a non-consumable, and refreshing it restores the purchase (Delivering Products: Persisting the Purchase; Restoring Purchased Products)")
        case .autoRenewableSubscription:
            ImportDefaults(
                delivery: "built-in", persistence: "receipt", restore: "receipt-refresh",
                reason: "the app receipt is the record of an auto-renewable subscription, and refreshing it restores the subscription (Delivering Products: Persisting the Purchase; Restoring Purchased Products)")
        case .nonRenewingSubscription:
            ImportDefaults(
                delivery: "built-in", persistence: "{strategy: icloud, record: receipt}", restore: "icloud",
                reason: "the app keeps the record of a non-renewing subscription itself, in iCloud or on its own server, and restores it from there; no server is known, so iCloud, holding a copy of the receipt, which resists tampering (Delivering Products: Persisting the Purchase; Restoring Purchased Products)")
        }
    }

    /// Why every product is `built-in`.
    static let deliveryReason = "a StoreKit configuration file does not say who delivers a product; built-in (everything ships in the app) needs no server"

    /// The `duration` a non-renewing subscription gets, which the file does not have.
    static let duration = "P1Y"
    static let durationReason = "a StoreKit configuration file has no duration for a non-renewing subscription (the app decides how long it lasts); P1Y is a placeholder to set"
}
