import StorekeeperCore

/// `verify-receipt`: validates the receipt with the registry's validator
/// before anything is delivered.
public struct VerifyReceiptStep: StepPlugin {
    /// `verify-receipt`.
    public let name = BuiltInStep.verifyReceipt.rawValue
    /// Creates the step.
    public init() {}
    /// Validates; a receipt that is not valid stops the plan.
    public func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        try await context.plugins.receiptValidator.validate(context)
        effects.append(.receiptVerified(product: context.product.id))
    }
}
