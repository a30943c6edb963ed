public import StorekeeperCore
public import StorekeeperDiagnostics

/// An offer of an auto-renewable subscription other than its introductory
/// offer: a promotional, offer-code or win-back offer, named by its id.
///
/// Its terms (`mode`, `period`, `periods`, `price`) follow the same rules as
/// an ``IntroductoryOffer``'s.
public struct SubscriptionOffer: Sendable, Hashable {
    /// The offer identifier the app and App Store Connect use: 1 to 100
    /// characters of `A-Z a-z 0-9 . _ -`, unique within the subscription.
    public var id: Located<String>
    /// Promotional, offer code or win-back.
    public var kind: Located<OfferKind>
    /// The name App Store Connect shows the developer (at most 64 characters).
    public var referenceName: Located<String>
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
    public init(
        id: Located<String>, kind: Located<OfferKind>, referenceName: Located<String>, mode: Located<OfferMode>,
        period: Located<ISOPeriod>, periods: Located<Int>?, price: Located<Price>?, location: SourceLocation
    ) {
        self.id = id
        self.kind = kind
        self.referenceName = referenceName
        self.mode = mode
        self.period = period
        self.periods = periods
        self.price = price
        position = SourceRange(start: location)
    }
}
