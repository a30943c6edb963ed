import StorekeeperCore

/// `grant`: adds the product's amounts to balances, times the quantity bought.
public struct GrantStep: StepPlugin {
    /// `grant`.
    public let name = BuiltInStep.grant.rawValue
    /// Creates the step.
    public init() {}
    /// One effect per balance. A quantity outside 1...max-quantity is
    /// refused: the store never sells more than the product allows.
    public func run(_ context: StepContext) async throws(StepFailure) -> [Effect] {
        let quantity = context.transaction.quantity
        guard quantity >= 1, quantity <= context.product.maxQuantity else {
            throw .permanent("quantity \(quantity) of \(context.product.id) is outside 1...\(context.product.maxQuantity) (its max-quantity)")
        }
        return try context.product.grants.map { grant throws(StepFailure) in
            let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
            guard !overflow else { throw .permanent("\(grant.amount) × \(quantity) of \(grant.balance) overflows") }
            return Effect.grant(balance: grant.balance, amount: amount)
        }
    }
}
