import StorekeeperCore

/// `verify-receipt`: validates the receipt with the registry's validator
/// before anything is delivered.
package struct VerifyReceiptStep: StepPlugin {
    /// `verify-receipt`.
    package let name = BuiltInStep.verifyReceipt.rawValue
    /// Creates the step.
    package init() {}
    /// Validates; a receipt that is not valid stops the plan.
    package func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        try await context.plugins.receiptValidator.validate(context)
        effects.append(.receiptVerified(product: context.product.id))
    }
}
