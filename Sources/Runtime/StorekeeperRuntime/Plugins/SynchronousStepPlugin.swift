/// A step whose work never waits: no network, no disk, no other actor. The
/// queue runs it inline, as it runs the built-in steps, without an `async`
/// call; so a plan of such steps dispatches a transaction without suspending.
///
/// Conform to this rather than to ``StepPlugin`` when your `run` would never
/// `await`, and implement ``runSynchronously(_:into:)``: `run(_:into:)` comes
/// with it. The rules are `run`'s: append the effects, throw `StepFailure`
/// to fail, and what a failed step appended is discarded.
///
/// ```swift
/// struct AuditLogStep: SynchronousStepPlugin {
///     let name = "audit-log"
///
///     func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
///         effects.append(.custom(step: name, detail: "\(context.transaction.productID) x\(context.transaction.quantity)"))
///     }
/// }
/// ```
///
/// A queue with record stores (`QueueConfiguration.recordStores`) still runs
/// such a step through `run`, since records it asks for in a store are
/// written before the step counts as done, and writing waits.
public protocol SynchronousStepPlugin: StepPlugin {
    /// Does the step's work for a transaction, without waiting, appending
    /// the effects it asks for to `effects`, after those of the plan's
    /// earlier steps. A step that throws has no effect.
    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure)
}

extension SynchronousStepPlugin {
    /// Runs ``runSynchronously(_:into:)``.
    public func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        try runSynchronously(context, into: &effects)
    }
}
