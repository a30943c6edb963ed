import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// The `type` of a product in a StoreKit configuration file.
public enum StoreKitProductType: String, Sendable, Hashable, CaseIterable {
    /// `Consumable`.
    case consumable = "Consumable"
    /// `NonConsumable`.
    case nonConsumable = "NonConsumable"
    /// `NonRenewingSubscription`.
    case nonRenewingSubscription = "NonRenewingSubscription"
    /// `RecurringSubscription`: an auto-renewable subscription.
    case recurringSubscription = "RecurringSubscription"

    /// The catalog's product type.
    public var catalogType: ProductType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewingSubscription: .nonRenewingSubscription
        case .recurringSubscription: .autoRenewableSubscription
        }
    }

    /// The type of a catalog product type.
    public init(_ type: ProductType) {
        switch type {
        case .consumable: self = .consumable
        case .nonConsumable: self = .nonConsumable
        case .nonRenewingSubscription: self = .nonRenewingSubscription
        case .autoRenewableSubscription: self = .recurringSubscription
        }
    }

    /// The top-level list Xcode keeps products of this type in
    /// (subscriptions are in their group's `subscriptions`).
    public var list: String {
        switch self {
        case .consumable, .nonConsumable: "products"
        case .nonRenewingSubscription: "nonRenewingSubscriptions"
        case .recurringSubscription: "subscriptions"
        }
    }
}

/// What an auto-renewable subscription adds to a product.
public struct StoreKitSubscriptionTerms: Sendable {
    /// `groupNumber`: its level in the group (1 is the highest).
    public var groupNumber: Located<Int>
    /// `recurringSubscriptionPeriod`.
    public var period: Located<String>
    /// `introductoryOffer` (or, in 5.0, the first of `introductoryOffers`).
    public var introductoryOffer: StoreKitOffer?
    /// Its ad hoc, code and win-back offers, in that order.
    public var offers: [StoreKitOffer]

    /// Creates subscription terms.
    public init(groupNumber: Located<Int>, period: Located<String>, introductoryOffer: StoreKitOffer?, offers: [StoreKitOffer]) {
        self.groupNumber = groupNumber
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.offers = offers
    }
}

/// A product of a StoreKit configuration file: an entry of `products`, of
/// `nonRenewingSubscriptions` or of a group's `subscriptions`.
public struct StoreKitProduct: Sendable {
    /// `type`.
    public var type: Located<StoreKitProductType>
    /// `productID`.
    public var productID: Located<String>
    /// `referenceName`.
    public var referenceName: Located<String>
    /// `displayPrice`, as written.
    public var displayPrice: Located<String>
    /// `familyShareable`.
    public var familyShareable: Located<Bool>?
    /// `localizations`.
    public var localizations: [StoreKitLocalization]
    /// The `localizations` key.
    public var localizationsKey: SourceRange
    /// What a subscription adds.
    public var subscription: StoreKitSubscriptionTerms?
    /// The product's object.
    public var range: SourceRange
    /// Its JSON path, for messages: `products[2]`.
    public var path: String

    /// Creates a product.
    public init(
        type: Located<StoreKitProductType>, productID: Located<String>, referenceName: Located<String>, displayPrice: Located<String>,
        familyShareable: Located<Bool>?, localizations: [StoreKitLocalization], localizationsKey: SourceRange,
        subscription: StoreKitSubscriptionTerms?, range: SourceRange, path: String
    ) {
        self.type = type
        self.productID = productID
        self.referenceName = referenceName
        self.displayPrice = displayPrice
        self.familyShareable = familyShareable
        self.localizations = localizations
        self.localizationsKey = localizationsKey
        self.subscription = subscription
        self.range = range
        self.path = path
    }
}
