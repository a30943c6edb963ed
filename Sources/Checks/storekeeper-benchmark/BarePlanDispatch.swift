import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPolicy
import StorekeeperRuntime

/// For information, between the two contenders of `storekeeper-benchmark dispatch` in memory: the
/// compiled plans run by the barest loop that still uses them. Per transaction: the plan by handle, one
/// `StepContext`, each step's plugin called (`async`, through `any StepPlugin`, returning an array of
/// effects), each effect applied to the hand-written dispatch's ledger. No `Dispatch` record, no
/// `Result`, no arrays of kept effects or of events.
///
/// What it costs over the hand-written switch is what plans and plugins cost as such; what
/// `InMemoryDispatcher` costs over it is the queue's own bookkeeping around them.
enum BarePlanDispatch {
    /// Dispatches every transaction; returns how many ran to their end.
    @inline(never)
    static func run(_ transactions: [DispatchTransaction], policy: CompiledPolicy, into ledger: inout HandWrittenLedger) async -> Int {
        let finish = BuiltInStep.finish.rawValue
        var completed = 0
        next: for item in transactions {
            let info = item.transaction.info
            let plan = policy.plan(for: item.product, state: info.state, error: info.error)
            let product = policy.product(item.product)
            let context = StepContext(transaction: info, product: product, plugins: policy.plugins)
            for step in plan.steps {
                if step.name == finish {
                    ledger.finished += 1
                    continue
                }
                let effects: [Effect]
                do {
                    effects = try await step.plugin.run(context)
                } catch {
                    ledger.refused += 1
                    continue next
                }
                for effect in effects {
                    ledger.apply(effect, transaction: item.transaction, product: product.id)
                }
            }
            completed += 1
        }
        return completed
    }
}
