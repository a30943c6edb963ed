import StorekeeperCore

/// `unlock`: makes the product's features available, and marks a product
/// that is kept (not a consumable) as owned.
public struct UnlockStep: StepPlugin {
    /// `unlock`.
    public let name = BuiltInStep.unlock.rawValue
    /// Creates the step.
    public init() {}
    /// One effect per feature, and ownership of a kept product.
    public func run(_ context: StepContext) async throws(StepFailure) -> [Effect] {
        var effects: [Effect] = context.product.type == .consumable ? [] : [.own(product: context.product.id)]
        effects += context.product.unlocks.map { Effect.unlock(feature: $0) }
        return effects
    }
}
