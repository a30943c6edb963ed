import StorekeeperCore
import StorekeeperRuntime

/// Each plan's step names and plugins, made once per policy so that a
/// dispatch shares them rather than building arrays per transaction.
struct PlanSteps: Sendable {
    let names: [[String]]
    let codes: [[StepCode]]
    /// Strategies whose registered plugin is the built-in one that keeps
    /// nothing outside the journal: `persist` runs inline for them.
    let inlinePersistence: Set<PersistenceStrategy>

    init(_ policy: CompiledPolicy) {
        names = policy.plans.map(\.stepNames)
        codes = policy.plans.map { $0.steps.map { StepCode($0.plugin) } }
        var inline = Set<PersistenceStrategy>()
        if policy.plugins.persistence(for: .receipt) is ReceiptPersistence { inline.insert(.receipt) }
        if policy.plugins.persistence(for: .appState) is AppStatePersistence { inline.insert(.appState) }
        inlinePersistence = inline
    }
}
