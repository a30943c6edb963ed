import StorekeeperCore

/// `unlock`: makes the product's features available, and marks a product
/// that is kept (not a consumable) as owned.
public struct UnlockStep: SynchronousStepPlugin {
    /// `unlock`.
    public let name = BuiltInStep.unlock.rawValue
    /// Creates the step.
    package init() {}
    /// One effect per feature, and ownership of a kept product.
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        let product = context.product
        if product.type != .consumable { effects.append(.own(product: product.id)) }
        for feature in product.unlocks { effects.append(.unlock(feature: feature)) }
    }
}
