/// Why a step could not do its work. A transient failure leaves the
/// transaction unfinished, to be retried (with backoff); a permanent one
/// stops the plan and is reported.
public struct StepFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether trying again later may succeed (no network, a server busy).
    public var isTransient: Bool
    /// What went wrong, in a sentence.
    public var reason: String

    /// A failure that may pass: the step is retried later.
    public static func transient(_ reason: String) -> StepFailure { StepFailure(isTransient: true, reason: reason) }
    /// A failure that will not pass by waiting.
    public static func permanent(_ reason: String) -> StepFailure { StepFailure(isTransient: false, reason: reason) }

    /// The reason, marked transient or permanent.
    public var description: String { "\(isTransient ? "transient" : "permanent") failure: \(reason)" }
}
