import StorekeeperCore

/// `grant`: adds the product's amounts to balances, times the quantity bought.
public struct GrantStep: SynchronousStepPlugin {
    /// `grant`.
    public let name = BuiltInStep.grant.rawValue
    /// Creates the step.
    package init() {}
    /// One effect per balance. A quantity outside 1...max-quantity is
    /// refused: the store never sells more than the product allows.
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        let product = context.product
        let quantity = context.transaction.quantity
        guard quantity >= 1, quantity <= product.maxQuantity else {
            throw .permanent("quantity \(quantity) of \(product.id) is outside 1...\(product.maxQuantity) (its max-quantity)")
        }
        for grant in product.grants {
            let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
            guard !overflow else { throw .permanent("\(grant.amount) × \(quantity) of \(grant.balance) overflows") }
            effects.append(.grant(balance: grant.balance, amount: amount))
        }
    }
}
