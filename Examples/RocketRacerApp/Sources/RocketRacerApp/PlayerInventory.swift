/// What the player has bought: products kept for good, and balances.
///
/// Written against the generated types only: `Product`, `Feature` and
/// `Balance` come from catalog.yaml at build time, so a product removed from
/// the catalog, or a name misspelt here, is a compile error.
struct PlayerInventory: Sendable {
    /// Non-consumables and subscriptions bought.
    private(set) var owned: Set<Product> = []
    /// What consumables added, by balance.
    private(set) var balances: [Balance: Int] = [:]

    /// Records a completed purchase of `quantity` units of `product`.
    mutating func deliver(_ product: Product, quantity: Int = 1) {
        switch product.type {
        case .consumable:
            for (balance, amount) in product.grants {
                balances[balance, default: 0] += amount * quantity
            }
        case .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription:
            owned.insert(product)
        }
    }

    /// Whether a product the player owns unlocks `feature`.
    func isUnlocked(_ feature: Feature) -> Bool {
        feature.unlockedBy.contains(where: owned.contains)
    }

    /// The player's subscription in a group: the highest level owned.
    func subscription(in group: RocketRacerCatalog.SubscriptionGroup) -> Product? {
        group.products.first(where: owned.contains)
    }
}
