import StorekeeperCore

/// `finish`: tells the store the transaction is done, so it is not
/// delivered again. The queue calls the store only after every earlier step
/// succeeded and its effects were committed.
public struct FinishStep: SynchronousStepPlugin {
    /// `finish`.
    public let name = BuiltInStep.finish.rawValue
    /// Creates the step.
    package init() {}
    /// Asks for the transaction to be finished.
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.finish)
    }
}
