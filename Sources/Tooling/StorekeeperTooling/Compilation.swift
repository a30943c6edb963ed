import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperRules
public import StorekeeperRuntime

/// What `compile` made of a catalog: its validation, and the policy when the
/// catalog has no error.
public struct Compilation {
    /// The validation that came first (its report holds every diagnostic).
    public var validation: Validation
    /// The compiled policy; nil when the catalog has errors (they are in
    /// ``diagnostics``).
    public var policy: CompiledPolicy?
    /// Validation's diagnostics, then the compiler's refusals, if any.
    public var diagnostics: [Diagnostic]

    /// The report of both steps.
    public var report: ValidationReport {
        ValidationReport(diagnostics: diagnostics, filesChecked: validation.report.filesChecked)
    }
}

/// How the steps an app registers (storekeeper.yml's `steps`) are known to
/// the compiler.
public enum PluginSteps: Sendable {
    /// Declared only: the policy names them, the app registers them (compile, explain).
    case declared
    /// Run by a plugin the caller makes for each name (simulate's stand-ins).
    case registered(@Sendable (String) -> any StepPlugin)
}

extension Workflows {
    /// Validates one catalog as ``validate(_:options:skippingEmptyFolders:)``
    /// does, then, when it has no error, compiles it into its policy: every
    /// product's plan for every situation.
    ///
    /// - Parameter path: a catalog file, or a folder holding one catalog.
    /// - Throws: Why it could not run (exit status 2): unreadable, or a
    ///   folder with several catalogs.
    public static func compile(_ path: String, options: WorkflowOptions = WorkflowOptions(), steps: PluginSteps = .declared) throws(WorkflowFailure) -> Compilation {
        try compile(validate([path], options: options), named: path, steps: steps)
    }

    /// Compiles the one catalog a validation found, when it has no error.
    ///
    /// - Parameter name: how the paths validated are named in the failure
    ///   when they hold several catalogs.
    public static func compile(_ validation: Validation, named name: String, steps: PluginSteps = .declared) throws(WorkflowFailure) -> Compilation {
        let found = try validation.onlyCatalog(named: name)
        let diagnostics = validation.report.diagnostics
        guard !validation.hasErrors, let catalog = found else {
            return Compilation(validation: validation, policy: nil, diagnostics: diagnostics)
        }
        let names = validation.policy.extraSteps.first ?? []
        var plugins = PluginRegistry()
        do {
            switch steps {
            case .declared: try plugins.declare(names)
            case .registered(let make): for name in names { try plugins.register(make(name)) }
            }
        } catch {
            throw WorkflowFailure("storekeeper.yml: \(error.description)")
        }
        do {
            let policy = try PolicyCompiler(plugins: plugins).compile(catalog, planRuleErrors: validation.policy.planRuleErrors.first)
            return Compilation(validation: validation, policy: policy, diagnostics: diagnostics)
        } catch {
            return Compilation(validation: validation, policy: nil, diagnostics: diagnostics + error.diagnostics)
        }
    }
}
