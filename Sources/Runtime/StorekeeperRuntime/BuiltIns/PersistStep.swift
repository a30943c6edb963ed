import StorekeeperCore

/// `persist`: records the purchase, as the product's persistence strategy says.
public struct PersistStep: StepPlugin {
    /// `persist`.
    public let name = BuiltInStep.persist.rawValue
    /// Creates the step.
    package init() {}
    /// The strategy's records.
    public func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        try await context.plugins.persistence(for: context.product.persistence).records(for: context, into: &effects)
    }
}
