public import StorekeeperCore

/// Decides what record of a purchase a persistence strategy keeps (the
/// `persist` step asks the product's strategy). Registering one for a
/// strategy name replaces the built-in one.
public protocol PersistenceStrategyPlugin: Sendable {
    /// The strategy it implements.
    var strategy: PersistenceStrategy { get }
    /// What it needs (a `server`, say); checked against every product that uses it.
    var requirements: [StepRequirement] { get }
    /// Appends the records to keep for a transaction (`Effect.record`) to
    /// `effects`. What it appended is discarded if it throws.
    func records(for context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure)
}

extension PersistenceStrategyPlugin {
    /// No requirements, unless the strategy says otherwise.
    public var requirements: [StepRequirement] { [] }
}
