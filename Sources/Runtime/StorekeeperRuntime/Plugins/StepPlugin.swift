public import StorekeeperCore

/// A step of a plan: a built-in one (`persist`, `finish`) or one an app
/// registers (`audit-log`). A catalog's custom rules may name any step the
/// registry knows.
///
/// A step appends the effects it wants applied to the buffer it is given
/// rather than applying them: the queue writes them in the same database
/// transaction as the journal entry that marks the step done, so they happen
/// exactly once. Appending to the run's one buffer, rather than returning
/// an array, keeps a step from allocating anything the plan does not need.
///
/// ```swift
/// struct AuditLogStep: StepPlugin {
///     let name = "audit-log"
///
///     func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
///         effects.append(.custom(step: name, detail: "\(context.transaction.productID) x\(context.transaction.quantity)"))
///     }
/// }
/// ```
public protocol StepPlugin: Sendable {
    /// The name catalogs use: a letter, then letters, digits, `-`, `_` or `.`.
    var name: String { get }
    /// What the step needs of a product, the catalog or the situation; the
    /// compiler refuses a plan that puts the step where one is not met. A
    /// plugin that replaces a built-in step needs what the built-in step
    /// needs too (`PluginRegistry.requirements(ofStep:)`).
    var requirements: [StepRequirement] { get }
    /// Does the step's work for a transaction, appending the effects it asks
    /// for to `effects`, after those of the plan's earlier steps. A step that
    /// throws has no effect: whatever it appended is discarded. `StepFailure.transient` leaves the transaction
    /// to be retried, `.permanent` stops the plan.
    func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure)
}

extension StepPlugin {
    /// No requirements, unless the step says otherwise.
    public var requirements: [StepRequirement] { [] }
}
