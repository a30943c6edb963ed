import StorekeeperCore

/// A step of a plan: a built-in one (`persist`, `finish`) or one an app
/// registers (`audit-log`). A catalog's custom rules may name any step the
/// registry knows.
///
/// A step returns the effects it wants applied rather than applying them:
/// the queue writes them in the same database transaction as the journal
/// entry that marks the step done, so they happen exactly once.
public protocol StepPlugin: Sendable {
    /// The name catalogs use: a letter, then letters, digits, `-`, `_` or `.`.
    var name: String { get }
    /// What the step needs of a product, the catalog or the situation; the
    /// compiler refuses a plan that puts the step where one is not met. A
    /// plugin that replaces a built-in step needs what the built-in step
    /// needs too (`PluginRegistry.requirements(ofStep:)`).
    var requirements: [StepRequirement] { get }
    /// Does the step's work for a transaction.
    func run(_ context: StepContext) async throws(StepFailure) -> [Effect]
}

extension StepPlugin {
    /// No requirements, unless the step says otherwise.
    public var requirements: [StepRequirement] { [] }
}
