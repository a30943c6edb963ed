public import StorekeeperCore

/// Validates a transaction's receipt before a purchase is delivered (the
/// `verify-receipt` step asks the registry's validator).
public protocol ReceiptValidatorPlugin: Sendable {
    /// A name for explanations (`server`).
    var name: String { get }
    /// What it needs (a `server`); checked wherever a plan verifies receipts.
    var requirements: [StepRequirement] { get }
    /// Returns normally when the receipt is valid; throws a permanent
    /// failure when it is not, a transient one when it cannot tell yet.
    func validate(_ context: StepContext) async throws(StepFailure)
}

extension ReceiptValidatorPlugin {
    /// No requirements, unless the validator says otherwise.
    public var requirements: [StepRequirement] { [] }
}
