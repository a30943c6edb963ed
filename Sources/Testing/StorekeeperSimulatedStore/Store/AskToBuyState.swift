/// What became of an Ask to Buy request (a `buy` with `ask-to-buy: true`),
/// as `expect: {ask-to-buy: {NAME: STATE}}` checks it.
public enum AskToBuyState: String, Sendable, Hashable, CaseIterable {
    /// Deferred: no one has answered yet, and 24 hours have not passed.
    case waiting
    /// Approved in time: the transaction was purchased.
    case approved
    /// Declined in time: the transaction failed with `payment-cancelled`.
    case declined
    /// Unanswered for 24 hours: the store deleted the request, and an
    /// `approve` or `decline` after that changed nothing.
    case expired
}
