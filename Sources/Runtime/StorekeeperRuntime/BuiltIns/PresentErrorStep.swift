import StorekeeperCore

/// `present-error`: shows the store's error for a failed transaction.
public struct PresentErrorStep: StepPlugin {
    /// `present-error`.
    public let name = BuiltInStep.presentError.rawValue
    /// Creates the step.
    public init() {}
    /// The error to show (`unknown` when the store gave none).
    public func run(_ context: StepContext) async throws(StepFailure) -> [Effect] {
        [.presentError(context.transaction.error ?? .unknown)]
    }
}
