import StorekeeperCore
import StorekeeperRuntime

/// Each plan's step names, codes and plugins, made once per policy so that a
/// dispatch refers to its plan by number rather than building or copying
/// arrays per transaction. Codes and plugins are kept in flat arrays, a
/// plan's steps side by side from ``firstStep(of:)``, so that reading one is
/// an index, not a nested array to retain.
struct PlanSteps: Sendable {
    /// The step names, by plan.
    let names: [[String]]
    /// Every plan's steps, translated, plan after plan.
    private let codes: [StepCode]
    /// Every plan's plugins, plan after plan (what `.plugin` and an outside `.persist` call).
    private let plugins: [any StepPlugin]
    /// The same, as synchronous plugins where they are (what `.synchronousPlugin` calls).
    private let synchronousPlugins: [SynchronousStep?]
    /// Where each plan's steps start in `codes` and `plugins`, and where the
    /// last one's end.
    private let starts: [Int]
    /// Whether the registered `receipt` strategy is the built-in one, which
    /// keeps nothing: then `persist` runs inline for it.
    private let receiptInline: Bool
    /// Whether the registered `app-state` strategy is the built-in one, whose
    /// record the journal keeps: then `persist` runs inline for it.
    private let appStateInline: Bool

    init(_ policy: CompiledPolicy) {
        names = policy.plans.map(\.stepNames)
        var codes: [StepCode] = []
        var plugins: [any StepPlugin] = []
        var starts: [Int] = []
        for plan in policy.plans {
            starts.append(codes.count)
            codes += plan.steps.map(StepCode.init)
            plugins += plan.steps.map(\.plugin)
        }
        starts.append(codes.count)
        self.codes = codes
        self.plugins = plugins
        synchronousPlugins = plugins.map { ($0 as? any SynchronousStepPlugin).map(SynchronousStep.init) }
        self.starts = starts
        receiptInline = policy.plugins.persistence(for: .receipt) is ReceiptPersistence
        appStateInline = policy.plugins.persistence(for: .appState) is AppStatePersistence
    }

    /// Where a plan's steps start in the flat arrays.
    @inline(__always)
    func firstStep(of plan: Int) -> Int { starts[plan] }

    /// How many steps a plan has.
    @inline(__always)
    func stepCount(of plan: Int) -> Int { starts[plan + 1] - starts[plan] }

    /// The code of a step, by its position in the flat arrays.
    @inline(__always)
    func code(at position: Int) -> StepCode { codes[position] }

    /// The plugin of a step, by its position in the flat arrays.
    func plugin(at position: Int) -> any StepPlugin { plugins[position] }

    /// The plugin of a `.synchronousPlugin` step, by its position in the flat arrays.
    @inline(__always)
    func synchronousPlugin(at position: Int) -> SynchronousStep? { synchronousPlugins[position] }

    /// Whether `persist` runs inline for a strategy (a switch, not a set:
    /// it is asked once per purchase).
    @inline(__always)
    func persistsInline(_ strategy: PersistenceStrategy) -> Bool {
        switch strategy {
        case .receipt: receiptInline
        case .appState: appStateInline
        case .userDefaults, .icloud, .server: false
        }
    }
}

/// A synchronous plugin, held by reference: taking one out of `PlanSteps`
/// per transaction then costs a retain, not a copy of an existential
/// through its value witnesses, and the call opens it in place.
final class SynchronousStep: Sendable {
    let plugin: any SynchronousStepPlugin

    init(_ plugin: any SynchronousStepPlugin) { self.plugin = plugin }
}
