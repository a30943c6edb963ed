public import StorekeeperCore
public import StorekeeperDiagnostics

/// One step of a plan, with where it came from.
public struct PlanStep: Sendable, Hashable {
    /// The step's name (`persist`, or a plugin's `audit-log`).
    public var name: String
    /// The built-in step of that name, if it is one.
    public var builtIn: BuiltInStep?
    /// The default plan or the custom rule that put it there.
    public var provenance: Provenance

    /// A step of the default plan.
    public init(_ step: BuiltInStep) {
        name = step.rawValue
        builtIn = step
        provenance = .defaultPlan
    }

    /// A step a custom rule wrote, at its place in the catalog.
    public init(name: String, rule: Int, at range: SourceRange) {
        self.name = name
        builtIn = BuiltInStep(name: name)
        provenance = .rule(index: rule, range: range)
    }
}

/// Why a step is in a plan.
public enum Provenance: Sendable, Hashable {
    /// The guide's default plan for the product and state.
    case defaultPlan
    /// A custom rule (its index in the catalog's `rules`) wrote the step here.
    case rule(index: Int, range: SourceRange)

    /// The step's place in the catalog, for a step a rule wrote.
    public var range: SourceRange? {
        if case .rule(_, let range) = self { return range }
        return nil
    }
}
