/// How an introductory offer is paid.
public enum OfferMode: String, CaseIterable, Hashable, Sendable {
    /// Nothing for the offer's period.
    case freeTrial = "free-trial"
    /// A reduced price for each of several periods.
    case payAsYouGo = "pay-as-you-go"
    /// One reduced price for the offer's period.
    case payUpFront = "pay-up-front"
}
