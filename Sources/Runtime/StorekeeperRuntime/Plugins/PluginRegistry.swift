public import StorekeeperCore

/// The plugins a policy is compiled with and run by, by name: steps,
/// persistence strategies, content sources and the receipt validator.
///
/// `PluginRegistry()` holds the built-in ones. Registering a plugin under a
/// name that is taken replaces what was there, so an app can swap a
/// built-in implementation (its own `download`, say) as well as add steps:
///
/// ```swift
/// var plugins = PluginRegistry()
/// try plugins.register(AuditLogStep())   // catalogs may now name `audit-log`
/// ```
public struct PluginRegistry: Sendable {
    private var steps: [String: any StepPlugin] = [:]
    /// Names of the steps that are not built in, in the order registered.
    package private(set) var extraStepNames: [String] = []
    private var persistence: [PersistenceStrategy: any PersistenceStrategyPlugin] = [:]
    private var contentSources: [ContentSource: any ContentSourcePlugin] = [:]
    /// The validator `verify-receipt` uses.
    package private(set) var receiptValidator: any ReceiptValidatorPlugin = ServerReceiptValidator()

    /// A registry of the built-in plugins.
    public init() {
        for step in BuiltInSteps.all { steps[step.name] = step }
        for strategy in BuiltInPersistence.all { persistence[strategy.strategy] = strategy }
        for source in BuiltInContentSources.all { contentSources[source.source] = source }
    }

    /// Registers a step, replacing one of the same name.
    public mutating func register(_ step: any StepPlugin) throws(PluginRegistrationError) {
        if let problem = NamePatterns.symbol(step.name, kind: "step") {
            throw PluginRegistrationError(name: step.name, problem: problem)
        }
        if steps[step.name] == nil { extraStepNames.append(step.name) }
        steps[step.name] = step
    }

    /// Registers the plugin for a persistence strategy, replacing the built-in one.
    public mutating func register(_ strategy: any PersistenceStrategyPlugin) {
        persistence[strategy.strategy] = strategy
    }

    /// Registers the plugin for a content source, replacing the built-in one.
    public mutating func register(_ source: any ContentSourcePlugin) {
        contentSources[source.source] = source
    }

    /// Uses this validator for `verify-receipt` instead of the server's.
    public mutating func register(_ validator: any ReceiptValidatorPlugin) {
        receiptValidator = validator
    }

    /// Declares step names with no implementation in this process, so that
    /// catalogs naming them validate and compile: the CLI does this with the
    /// `steps` of `storekeeper.yml`. Running such a step fails; an app
    /// registers the real one before it runs plans.
    public mutating func declare(_ names: [String]) throws(PluginRegistrationError) {
        for name in names where steps[name] == nil { try register(DeclaredStep(name: name)) }
    }

    /// The step registered under a name.
    public func step(named name: String) -> (any StepPlugin)? { steps[name] }

    /// The plugin for a persistence strategy.
    public func persistence(for strategy: PersistenceStrategy) -> any PersistenceStrategyPlugin {
        persistence[strategy] ?? BuiltInPersistence.plugin(for: strategy)
    }

    /// The plugin for a content source.
    package func contentSource(for source: ContentSource) -> any ContentSourcePlugin {
        contentSources[source] ?? BuiltInContentSources.plugin(for: source)
    }

    /// What the step of this name needs: a built-in step's needs
    /// (`BuiltInStep.requirements`, which a replacement keeps) and what its
    /// plugin declares.
    public func requirements(ofStep name: String) -> [StepRequirement] {
        (BuiltInStep(name: name)?.requirements ?? []) + (steps[name]?.requirements ?? [])
    }

    /// Every step name, with what each needs, for checking catalogs.
    package var stepLibrary: StepLibrary {
        StepLibrary(extraSteps: extraStepNames, requirements: steps.mapValues(\.requirements))
    }
}

/// A plugin name that catalogs could not use.
public struct PluginRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name given.
    public var name: String
    /// What is wrong with it.
    public var problem: String

    /// "the step name 'Audit Log' contains ' '…".
    public var description: String { "the step name '\(name)' \(problem)" }
}
