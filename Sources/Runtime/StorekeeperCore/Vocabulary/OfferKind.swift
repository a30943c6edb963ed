/// The kinds of subscription offer besides the introductory one: how a
/// subscriber comes to be offered it.
public enum OfferKind: String, CaseIterable, Hashable, Sendable {
    /// An offer the app presents to subscribers it chooses, signed by the
    /// app's server (App Store Connect's promotional offers; `adHocOffers`
    /// in a StoreKit configuration file).
    case promotional
    /// An offer redeemed with a code (`codeOffers` in a StoreKit configuration file).
    case offerCode = "offer-code"
    /// An offer to subscribers who have left, to bring them back (`winbackOffers`).
    case winBack = "win-back"
}
