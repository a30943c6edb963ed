/// What a generated catalog holds, decided before any text is written: the type of every product and
/// the features, balances and subscription groups that the products use.
///
/// Deciding first lets the catalog declare exactly the names its products refer to, no more, so that
/// a correct validator has nothing to report on it.
struct CatalogPlan: Sendable {
    /// The four product types of the catalog format.
    enum Kind: UInt8, Sendable {
        case nonConsumable
        case consumable
        case autoRenewable
        case nonRenewing
    }

    /// Where an auto-renewable subscription sits in its group.
    struct Subscription: Sendable {
        /// The group's number, from 1.
        let group: Int
        /// The service level in the group; 1 is the highest.
        let level: Int
        /// Whether it renews every year (`P1Y`) rather than every month (`P1M`).
        let isYearly: Bool
    }

    /// The balances that consumables add to, in the order they are handed out.
    static let balanceNames = ["coins", "gems", "hints", "credits"]

    /// The type of each product, in catalog order.
    let kinds: [Kind]
    /// How many features are declared; products that unlock something take them in turn.
    let featureCount: Int
    /// How many subscription groups are declared: about one for every 50 products.
    let groupCount: Int
    /// How many consumables there are.
    let consumableCount: Int

    /// Plans a catalog of `productCount` products: about 40% non-consumable, 30% consumable,
    /// 20% auto-renewable subscriptions and 10% non-renewing subscriptions, in an order drawn from a
    /// fixed seed.
    ///
    /// - Precondition: `productCount` is positive.
    init(productCount: Int) {
        precondition(productCount > 0, "a catalog needs at least one product")
        var random = SeededGenerator(seed: 0x5354_4F52_454B_4545)  // "STOREKEE"
        var kinds: [Kind] = []
        kinds.reserveCapacity(productCount)
        for _ in 0..<productCount {
            switch random.next(below: 10) {
            case 0..<4: kinds.append(.nonConsumable)
            case 4..<7: kinds.append(.consumable)
            case 7..<9: kinds.append(.autoRenewable)
            default: kinds.append(.nonRenewing)
            }
        }
        self.kinds = kinds

        let subscriptions = kinds.lazy.filter({ $0 == .autoRenewable }).count
        consumableCount = kinds.lazy.filter({ $0 == .consumable }).count
        let unlocking = productCount - consumableCount
        groupCount = min(subscriptions, max(1, (productCount + 49) / 50))
        featureCount = min(unlocking, max(1, (productCount + 9) / 10))
    }

    /// The names of the balances that the consumables use.
    var balances: ArraySlice<String> {
        Self.balanceNames.prefix(consumableCount)
    }

    /// The name of the feature with the given number, from 1.
    static func featureName(_ number: Int) -> String {
        "feature-\(number)"
    }

    /// The id of the subscription group with the given number, from 1.
    static func groupID(_ number: Int) -> String {
        "pro-\(number)"
    }

    /// The feature that the `index`-th unlocking product (counted from 0) unlocks.
    func feature(forUnlocking index: Int) -> String {
        Self.featureName(index % featureCount + 1)
    }

    /// The position in ``balanceNames`` of the balance that the `index`-th consumable (counted from 0)
    /// adds to: consumables take the balances in turn.
    func balanceIndex(forConsumable index: Int) -> Int {
        index % Self.balanceNames.count
    }

    /// The place of the `index`-th auto-renewable subscription (counted from 0): subscriptions are dealt
    /// to the groups in turn, and within a group they come in monthly and yearly pairs, one level per pair.
    func subscription(_ index: Int) -> Subscription {
        let position = index / groupCount
        return Subscription(group: index % groupCount + 1, level: position / 2 + 1, isYearly: position % 2 == 1)
    }
}
