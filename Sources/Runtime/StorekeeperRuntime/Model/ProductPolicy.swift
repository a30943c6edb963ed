public import StorekeeperCore

/// What the engine keeps of a product to run its plans: everything a step
/// needs, and nothing of the YAML it came from (a compiled policy is loaded
/// without it).
public struct ProductPolicy: Sendable, Hashable {
    /// The App Store product identifier.
    public var id: String
    /// Consumable, non-consumable, or one of the subscriptions.
    public var type: ProductType
    /// Built-in or server.
    public var delivery: DeliveryModel
    /// Features a purchase unlocks.
    public var unlocks: [String]
    /// Balances a purchase adds to, per unit bought.
    public var grants: [GrantPolicy]
    /// Associated content, if any.
    public var content: ContentPolicy?
    /// Where the record of a purchase is kept.
    public var persistence: PersistenceStrategy
    /// With `user-defaults` and `icloud`: a flag or a copy of the receipt.
    public var record: RecordKind
    /// How purchases are restored.
    public var restore: RestorePolicy
    /// What starts a restore.
    package var restoreTrigger: RestoreTrigger
    /// Which content a restore downloads again.
    package var restoreSelection: RestoreSelection
    /// How many one payment may buy.
    package var maxQuantity: Int
    /// Whether family members share it.
    public var familyShareable: Bool
    /// An auto-renewable subscription's group, level and period.
    public var subscription: SubscriptionPolicy?
    /// A non-renewing subscription's duration (ISO 8601, `P3M`).
    public var duration: String?
    /// An auto-renewable subscription's promotional, offer-code and win-back
    /// offers, in the catalog's order: the offers a payment may name.
    public var offers: [OfferPolicy]

    /// Creates a product policy.
    package init(
        id: String, type: ProductType, delivery: DeliveryModel, unlocks: [String] = [], grants: [GrantPolicy] = [],
        content: ContentPolicy? = nil, persistence: PersistenceStrategy, record: RecordKind = .flag,
        restore: RestorePolicy, restoreTrigger: RestoreTrigger = .user, restoreSelection: RestoreSelection = .all,
        maxQuantity: Int = 1, familyShareable: Bool = false, subscription: SubscriptionPolicy? = nil, duration: String? = nil,
        offers: [OfferPolicy] = []
    ) {
        self.id = id
        self.type = type
        self.delivery = delivery
        self.unlocks = unlocks
        self.grants = grants
        self.content = content
        self.persistence = persistence
        self.record = record
        self.restore = restore
        self.restoreTrigger = restoreTrigger
        self.restoreSelection = restoreSelection
        self.maxQuantity = maxQuantity
        self.familyShareable = familyShareable
        self.subscription = subscription
        self.duration = duration
        self.offers = offers
    }
}

/// An amount of a balance a consumable adds, per unit bought.
public struct GrantPolicy: Sendable, Hashable {
    /// The balance's name.
    public var balance: String
    /// The amount per unit.
    public var amount: Int

    /// Creates a grant.
    package init(balance: String, amount: Int) {
        self.balance = balance
        self.amount = amount
    }
}

/// A product's associated content.
public struct ContentPolicy: Sendable, Hashable {
    /// Bundle, Apple-hosted or server.
    public var source: ContentSource
    /// The relative path inside its root.
    public var path: String?
    /// The download size in bytes, when declared.
    public var size: Int64?
    /// Cache or documents, for downloaded content.
    public var storage: ContentStorage?

    /// Creates content.
    package init(source: ContentSource, path: String? = nil, size: Int64? = nil, storage: ContentStorage? = nil) {
        self.source = source
        self.path = path
        self.size = size
        self.storage = storage
    }
}

/// An auto-renewable subscription's place in its group.
public struct SubscriptionPolicy: Sendable, Hashable {
    /// The group.
    public var group: String
    /// The level (1 is the highest).
    public var level: Int
    /// How often it renews.
    public var period: SubscriptionPeriod

    /// Creates subscription details.
    package init(group: String, level: Int, period: SubscriptionPeriod) {
        self.group = group
        self.level = level
        self.period = period
    }
}

extension ProductPolicy: StepSubject {
    /// The product's type.
    public var productType: ProductType { type }
    /// Whether it has content from `apple-hosted` or `server`.
    package var hasDownloadableContent: Bool { content.map { $0.source != .bundle } ?? false }
    /// The declared size of its content in bytes, if any.
    public var contentSize: Int64? { content?.size }
    /// Whether it adds to balances.
    package var grantsBalances: Bool { !grants.isEmpty }
    /// Whether it unlocks features.
    package var unlocksFeatures: Bool { !unlocks.isEmpty }
}
