import StorekeeperEngine

/// Each plan's step names and plugins, made once per policy so that a
/// dispatch shares them rather than building arrays per transaction.
struct PlanSteps: Sendable {
    let names: [[String]]
    let plugins: [[any StepPlugin]]

    init(_ policy: CompiledPolicy) {
        names = policy.plans.map(\.stepNames)
        plugins = policy.plans.map { $0.steps.map(\.plugin) }
    }
}
