import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// Where an offer is listed in a subscription, which says what kind it is.
public enum StoreKitOfferKind: String, Sendable, Hashable, CaseIterable {
    /// `introductoryOffer` (and 5.0's `introductoryOffers`).
    case introductory = "introductoryOffer"
    /// `adHocOffers`: promotional offers.
    case adHoc = "adHocOffers"
    /// `codeOffers`: offer codes.
    case code = "codeOffers"
    /// `winbackOffers`: win-back offers.
    case winBack = "winbackOffers"

    /// The lists of offers other than the introductory one, in Xcode's order.
    public static let lists: [StoreKitOfferKind] = [.adHoc, .code, .winBack]

    /// The catalog's kind of offer (nil for the introductory offer, which the
    /// catalog holds apart).
    public var catalogKind: OfferKind? {
        switch self {
        case .introductory: nil
        case .adHoc: .promotional
        case .code: .offerCode
        case .winBack: .winBack
        }
    }

    /// The list that holds offers of a catalog kind.
    public init(_ kind: OfferKind) {
        switch kind {
        case .promotional: self = .adHoc
        case .offerCode: self = .code
        case .winBack: self = .winBack
        }
    }
}

/// How an offer is paid (`paymentMode`).
public enum StoreKitPaymentMode: String, Sendable, Hashable, CaseIterable {
    /// A free trial.
    case free
    /// A reduced price every period for a number of periods.
    case payAsYouGo
    /// One reduced price for the offer's period.
    case payUpFront

    /// The catalog's offer mode.
    public var catalogMode: OfferMode {
        switch self {
        case .free: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }

    /// The payment mode of a catalog offer mode.
    public init(_ mode: OfferMode) {
        switch mode {
        case .freeTrial: self = .free
        case .payAsYouGo: self = .payAsYouGo
        case .payUpFront: self = .payUpFront
        }
    }
}

/// An offer of a subscription: its introductory offer, or one of its ad hoc
/// (promotional), code or win-back offers.
public struct StoreKitOffer: Sendable {
    /// Which list it is in.
    public var kind: StoreKitOfferKind
    /// `offerID` (every offer but the introductory one has one).
    public var offerID: Located<String>?
    /// `referenceName` (every offer but the introductory one has one).
    public var referenceName: Located<String>?
    /// `paymentMode`.
    public var paymentMode: Located<StoreKitPaymentMode>
    /// `subscriptionPeriod`: the offer's length, or its billing period when
    /// paid as you go.
    public var subscriptionPeriod: Located<String>
    /// `numberOfPeriods`.
    public var numberOfPeriods: Located<Int>?
    /// `displayPrice`.
    public var displayPrice: Located<String>?
    /// The offer's object.
    public var range: SourceRange
    /// Its JSON path, for messages: `subscriptionGroups[0].subscriptions[1].adHocOffers[0]`.
    public var path: String

    /// Creates an offer.
    public init(
        kind: StoreKitOfferKind, offerID: Located<String>?, referenceName: Located<String>?, paymentMode: Located<StoreKitPaymentMode>,
        subscriptionPeriod: Located<String>, numberOfPeriods: Located<Int>?, displayPrice: Located<String>?, range: SourceRange, path: String
    ) {
        self.kind = kind
        self.offerID = offerID
        self.referenceName = referenceName
        self.paymentMode = paymentMode
        self.subscriptionPeriod = subscriptionPeriod
        self.numberOfPeriods = numberOfPeriods
        self.displayPrice = displayPrice
        self.range = range
        self.path = path
    }
}
