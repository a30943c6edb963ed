import StorekeeperCore

/// `present-error`: shows the store's error for a failed transaction.
public struct PresentErrorStep: SynchronousStepPlugin {
    /// `present-error`.
    public let name = BuiltInStep.presentError.rawValue
    /// Creates the step.
    package init() {}
    /// The error to show (`unknown` when the store gave none).
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.presentError(context.transaction.error ?? .unknown))
    }
}
