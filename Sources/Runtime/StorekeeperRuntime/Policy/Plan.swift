import StorekeeperCore

/// An ordered, immutable plan of steps for one product in one situation.
/// Plans are shared: products whose plans are alike point at one plan.
///
/// A plan takes four forms on its way from the catalog to the journal, each
/// for one layer, and this is the one place that names them all:
/// 1. `CompiledPlan` (StorekeeperPolicy, tooling): the steps with the custom
///    rule that chose them, for the compiler, `explain` and the diagnostics;
///    the default steps come from `DefaultPlan`, whose shape of a product is
///    derived once (`DefaultPlan.Shape.init(type:delivery:persistence:contentSource:unlocksFeatures:grantsBalances:)`).
/// 2. `Plan` and ``ResolvedStep`` (here): the compiled policy's plan, each
///    step resolved to the plugin that runs it; what dispatch answers.
/// 3. `PlanSteps` and `StepCode` (StorekeeperQueue, internal): every plan of
///    a policy translated once into flat arrays of codes, for the executor.
/// 4. Step names in the journal: a transaction's plan as names, with how
///    many of its steps are done, so that a relaunch resumes at the first
///    step not done even under another policy.
public struct Plan: Sendable {
    /// The steps, in order.
    public let steps: [ResolvedStep]
    /// The custom rule (index in `CompiledPolicy.rules`) that changed the
    /// default plan, if one did.
    public let rule: Int?

    /// Creates a plan.
    package init(steps: [ResolvedStep], rule: Int?) {
        self.steps = steps
        self.rule = rule
    }

    /// The step names, in order.
    public var stepNames: [String] { steps.map(\.name) }

    /// Whether the plan ends the transaction (has `finish`); a plan that
    /// does not leaves it waiting for its next state.
    public var finishes: Bool { steps.contains { $0.name == BuiltInStep.finish.rawValue } }
}

/// A step of a plan, resolved to the plugin that runs it.
public struct ResolvedStep: Sendable {
    /// The step's name.
    public let name: String
    /// Its implementation.
    public let plugin: any StepPlugin
    /// Why it is in the plan.
    public let origin: StepOrigin

    /// Creates a resolved step.
    package init(name: String, plugin: any StepPlugin, origin: StepOrigin) {
        self.name = name
        self.plugin = plugin
        self.origin = origin
    }
}
