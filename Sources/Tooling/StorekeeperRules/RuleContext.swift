public import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperPolicy

/// What a rule checks: the catalog, the step names it may use, and its
/// custom rules' plans, compiled once for all the rules that need them.
public struct RuleContext: Sendable {
    /// The catalog (its valid products).
    public let catalog: Catalog
    /// The built-in steps and those plugins register.
    public let steps: StepLibrary
    /// The problems of the plans the catalog's custom rules make.
    public let policy: PolicyAnalysis
    /// False when the catalog's files had format errors, so some products or
    /// rules were left out of `catalog`: rules about what is missing (a group
    /// with no product, a gap in levels) then stay quiet rather than guess.
    public let isComplete: Bool

    /// A context for a catalog; compiles the plans its custom rules touch.
    public init(catalog: Catalog, steps: StepLibrary = StepLibrary(), isComplete: Bool = true) {
        self.catalog = catalog
        self.steps = steps
        self.isComplete = isComplete
        policy = PolicyAnalysis(catalog, steps: steps)
    }
}
