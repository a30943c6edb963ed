import StorekeeperCore

/// `notify`: tells the interface the transaction's state (a spinner while
/// purchasing, the new content after).
public struct NotifyStep: SynchronousStepPlugin {
    /// `notify`.
    public let name = BuiltInStep.notify.rawValue
    /// Creates the step.
    package init() {}
    /// Asks for the state to be shown.
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.notify(context.transaction.state))
    }
}
