import StorekeeperCore

/// `notify`: tells the interface the transaction's state (a spinner while
/// purchasing, the new content after).
public struct NotifyStep: StepPlugin {
    /// `notify`.
    public let name = BuiltInStep.notify.rawValue
    /// Creates the step.
    public init() {}
    /// Asks for the state to be shown.
    public func run(_ context: StepContext) async throws(StepFailure) -> [Effect] {
        [.notify(context.transaction.state)]
    }
}
