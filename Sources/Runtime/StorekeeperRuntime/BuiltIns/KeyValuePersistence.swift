package import StorekeeperCore

/// `user-defaults` and `icloud`: a key-value record per product, a flag or a
/// copy of the transaction's receipt (`record: receipt`, which resists
/// tampering). The two differ in where the record lives (a local file or a
/// store synced across devices), which the queue's record stores decide.
package struct KeyValuePersistence: PersistenceStrategyPlugin {
    /// `user-defaults` or `icloud`.
    package let strategy: PersistenceStrategy
    /// Creates the strategy for `user-defaults` or `icloud`.
    package init(strategy: PersistenceStrategy) { self.strategy = strategy }
    /// A flag, or the receipt copy (which the transaction must carry).
    package func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        switch context.product.record {
        case .flag:
            effects.append(.record(PersistenceRecord(strategy: strategy, key: context.product.id, value: .flag)))
        case .receipt:
            guard let receipt = context.transaction.receipt, !receipt.isEmpty else {
                throw .transient("transaction \(context.transaction.id) came without a receipt to copy; refresh the receipt and retry")
            }
            effects.append(.record(PersistenceRecord(strategy: strategy, key: context.product.id, value: .receipt(receipt))))
        }
    }
}
