public import StorekeeperCore
public import StorekeeperDiagnostics

/// One in-app purchase product, decoded and checked, with catalog defaults applied.
public struct Product: Sendable, Hashable {
    /// The App Store product identifier.
    public var id: Located<String>
    /// Which of the four kinds of product it is.
    public var type: Located<ProductType>
    /// The name App Store Connect shows the developer.
    public var referenceName: Located<String>
    /// The price, in the app's base currency.
    public var price: Located<Price>
    /// What the App Store shows, by locale.
    public var localizations: [Localization]
    /// Whether family members share the purchase; nil when not written (false).
    public var familyShareable: Located<Bool>?
    /// How many one payment may buy (consumables); nil when not written (1).
    public var maxQuantity: Located<Int>?
    /// How the purchase is delivered.
    public var delivery: Delivery
    /// Where the record of the purchase is kept.
    public var persistence: Persistence
    /// How the purchase is restored.
    public var restore: Restore
    /// Group, level, period and offer of an auto-renewable subscription.
    public var subscription: Subscription? {
        get { subscriptionBox?.value }
        set { subscriptionBox = newValue.map(Box.init) }
    }
    /// How long a non-renewing subscription lasts.
    public var duration: Located<ISOPeriod>? {
        get { durationBox?.value }
        set { durationBox = newValue.map(Box.init) }
    }
    private var subscriptionBox: Box<Subscription>?
    private var durationBox: Box<Located<ISOPeriod>>?
    /// The product's mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates a product.
    public init(
        id: Located<String>, type: Located<ProductType>, referenceName: Located<String>, price: Located<Price>,
        localizations: [Localization], familyShareable: Located<Bool>? = nil, maxQuantity: Located<Int>? = nil,
        delivery: Delivery, persistence: Persistence, restore: Restore, subscription: Subscription? = nil,
        duration: Located<ISOPeriod>? = nil, location: SourceLocation
    ) {
        self.id = id
        self.type = type
        self.referenceName = referenceName
        self.price = price
        self.localizations = localizations
        self.familyShareable = familyShareable
        self.maxQuantity = maxQuantity
        self.delivery = delivery
        self.persistence = persistence
        self.restore = restore
        subscriptionBox = subscription.map(Box.init)
        durationBox = duration.map(Box.init)
        position = SourceRange(start: location)
    }

    /// Whether family sharing is on (default false).
    public var isFamilyShareable: Bool { familyShareable?.value ?? false }
    /// How many one payment may buy (default 1).
    public var quantityLimit: Int { maxQuantity?.value ?? 1 }
}

/// What the App Store shows for a product in one locale.
public struct Localization: Sendable, Hashable {
    /// The locale: `en-US`, `fr`, `pt-BR`.
    public var locale: Located<String>
    /// The display name.
    public var title: Located<String>
    /// The short description.
    public var description: Located<String>

    /// Creates a localization.
    public init(locale: Located<String>, title: Located<String>, description: Located<String>) {
        self.locale = locale
        self.title = title
        self.description = description
    }
}

/// The subscription details of an auto-renewable subscription.
public struct Subscription: Sendable, Hashable {
    /// The declared group it belongs to.
    public var group: Located<String>
    /// Its level in the group (1 is the highest); nil when not written (1).
    public var level: Located<Int>?
    /// How often it renews.
    public var period: Located<SubscriptionPeriod>
    /// An introductory offer for new subscribers.
    public var introductoryOffer: IntroductoryOffer?
    /// Its promotional, offer-code and win-back offers, in the order written
    /// (empty when it has none).
    public var offers: [SubscriptionOffer]

    /// Creates subscription details.
    public init(
        group: Located<String>, level: Located<Int>?, period: Located<SubscriptionPeriod>, introductoryOffer: IntroductoryOffer?,
        offers: [SubscriptionOffer] = []
    ) {
        self.group = group
        self.level = level
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.offers = offers
    }

    /// The level (default 1).
    public var effectiveLevel: Int { level?.value ?? 1 }
}

/// An introductory offer of an auto-renewable subscription.
public struct IntroductoryOffer: Sendable, Hashable {
    /// Free trial, pay as you go, or pay up front.
    public var mode: Located<OfferMode>
    /// The offer's length (free trial, pay up front) or billing period (pay as you go).
    public var period: Located<ISOPeriod>
    /// How many billing periods (pay as you go).
    public var periods: Located<Int>?
    /// The reduced price (pay as you go, pay up front).
    public var price: Located<Price>?
    /// The offer's mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates an offer.
    public init(mode: Located<OfferMode>, period: Located<ISOPeriod>, periods: Located<Int>?, price: Located<Price>?, location: SourceLocation) {
        self.mode = mode
        self.period = period
        self.periods = periods
        self.price = price
        position = SourceRange(start: location)
    }
}
