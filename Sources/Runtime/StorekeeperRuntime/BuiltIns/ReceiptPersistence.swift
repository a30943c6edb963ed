public import StorekeeperCore

/// `receipt`: the app receipt is the record; there is nothing else to keep.
public struct ReceiptPersistence: PersistenceStrategyPlugin {
    /// `receipt`.
    public let strategy = PersistenceStrategy.receipt
    /// Creates the strategy.
    package init() {}
    /// No records: the store's receipt lists the purchase.
    public func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {}
}
