import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPolicy
import StorekeeperQueue
import StorekeeperRuntime

/// For information, beside the two contenders of `storekeeper-benchmark dispatch` in memory: the compiled
/// plans run by the barest loop that still uses them, with every step (built-in ones too) through its
/// plugin. Per transaction: the plan by handle, one `StepContext` (referring to one shared environment,
/// as the queue's does), each step's plugin called (`async`, through `any StepPlugin`, appending to one
/// effect buffer), then the effects applied to the ledger. No `Dispatch` record, no inline built-ins.
///
/// Against `InMemoryDispatcher`, it shows what running the built-in steps inline saves and what the
/// queue's bookkeeping costs; against the hand-written switch, what plans and plugins cost as such.
enum BarePlanDispatch {
    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], policy: CompiledPolicy, environment: StepEnvironment,
                    into ledger: inout EffectLedger) async -> Int {
        var completed = 0
        var effects = EffectBuffer()
        for item in transactions {
            effects.removeAll()
            if await Self.effects(of: item, policy: policy, environment: environment, into: &effects) { completed += 1 }
            ledger.apply(effects, of: item.transaction)
        }
        return completed
    }

    /// Appends a transaction's effects, its plan's plugins called in order: returns false when a step
    /// failed (what it appended is dropped, and the plan stops there).
    static func effects(of item: DispatchTransaction, policy: CompiledPolicy, environment: StepEnvironment,
                        into effects: inout EffectBuffer) async -> Bool {
        let info = item.transaction.info
        let context = StepContext(transaction: info, product: item.product, in: environment)
        for step in policy.plan(for: item.product, state: info.state, error: info.error).steps {
            let start = effects.count
            do {
                try await step.plugin.run(context, into: &effects)
            } catch {
                effects.discard(from: start)
                return false
            }
        }
        return true
    }
}
