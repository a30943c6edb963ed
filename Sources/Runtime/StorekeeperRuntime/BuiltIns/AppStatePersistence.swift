public import StorekeeperCore

/// `app-state`: the app's own preserved state (for consumables, whose
/// balances are the state): a record of the transaction in the engine's database.
public struct AppStatePersistence: PersistenceStrategyPlugin {
    /// `app-state`.
    public let strategy = PersistenceStrategy.appState
    /// Creates the strategy.
    package init() {}
    /// The transaction, kept with the balances it changed.
    public func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
        effects.append(.record(PersistenceRecord(strategy: .appState, key: context.product.id,
                                                 value: .transaction(id: context.transaction.id, quantity: context.transaction.quantity))))
    }
}
