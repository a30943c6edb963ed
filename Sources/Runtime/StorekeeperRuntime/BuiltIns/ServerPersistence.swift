package import StorekeeperCore

/// `server`: the app's server keeps the record against the user's account.
/// The record names the transaction; the queue sends it to the server.
package struct ServerPersistence: PersistenceStrategyPlugin {
    /// `server`.
    package let strategy = PersistenceStrategy.server
    /// A server to keep the record.
    package var requirements: [StepRequirement] { [.server] }
    /// Creates the strategy.
    package init() {}
    /// The transaction, for the server.
    package func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        effects.append(.record(PersistenceRecord(strategy: .server, key: context.product.id,
                                                 value: .transaction(id: context.transaction.id, quantity: context.transaction.quantity))))
    }
}
