import StorekeeperCatalog
public import StorekeeperCore

/// The plan for one product in one situation, and how it was decided.
public struct CompiledPlan: Sendable, Hashable {
    /// The steps, in order.
    public var steps: [PlanStep]
    /// The custom rule (index in the catalog's `rules`) that changed the
    /// default plan, if one did.
    public var rule: Int?
    /// Other rules exactly as specific as `rule` that also match: the plan is
    /// ambiguous when this is not empty.
    public var tiedRules: [Int]
    /// Set when `rule` inserts next to a step the plan does not have (the
    /// plan is then the default one).
    public var missingAnchor: Bool

    /// Whether the plan has a step of this name.
    public func contains(_ step: BuiltInStep) -> Bool { steps.contains { $0.builtIn == step } }

    /// The position of the first step of this name.
    public func firstIndex(of step: BuiltInStep) -> Int? { steps.firstIndex { $0.builtIn == step } }
}
