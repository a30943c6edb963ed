/// A subscription offer a purchase redeems: the transaction's `offerType`,
/// `offerIdentifier` and `offerDiscountType`.
///
/// Source: https://developer.apple.com/documentation/appstoreserverapi/offertype
/// and https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype
public struct Offer: Sendable, Hashable {
    /// Apple's `offerType`.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        /// An introductory offer (1).
        case introductory = 1
        /// A promotional offer (2).
        case promotional = 2
        /// An offer code (3).
        case offerCode = 3
        /// A win-back offer (4).
        case winBack = 4
    }

    /// Apple's `offerDiscountType`: how the offer is paid.
    public enum DiscountType: String, Sendable, Hashable, CaseIterable {
        /// Nothing for the offer's period.
        case freeTrial = "FREE_TRIAL"
        /// A reduced price for each of several periods.
        case payAsYouGo = "PAY_AS_YOU_GO"
        /// One reduced price for the offer's period.
        case payUpFront = "PAY_UP_FRONT"
    }

    /// `offerType`.
    public var kind: Kind
    /// `offerIdentifier`: the promotional offer's, the offer code's reference name or the win-back offer's
    /// identifier; Apple writes none for an introductory offer.
    public var identifier: String?
    /// `offerDiscountType`.
    public var discountType: DiscountType
    /// The length of one offer period (ISO 8601, `P1W`); nil: the product's own period.
    public var period: String?
    /// How many periods the offer lasts (pay-as-you-go: several; otherwise 1).
    public var periods: Int

    /// An offer.
    public init(kind: Kind, identifier: String? = nil, discountType: DiscountType, period: String? = nil, periods: Int = 1) {
        self.kind = kind
        self.identifier = identifier
        self.discountType = discountType
        self.period = period
        self.periods = periods
    }
}
