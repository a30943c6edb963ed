import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// What makes the in-memory comparison fair: before anything is timed, every transaction's effects as the
/// hand-written switch appends them must equal, value for value and in order, those `InMemoryDispatcher`
/// appends running its compiled plan, and those the plan's plugins append when every step runs through
/// its plugin (``BarePlanDispatch``), which also checks the dispatcher's inline built-in steps against
/// the plugins they stand for.
enum SameEffectsCheck {
    /// Compares the three for every transaction.
    ///
    /// - Throws: ``BenchmarkError`` naming the first transaction whose effects differ, with the lists.
    static func check(_ transactions: [DispatchTransaction], workload: DispatchWorkload) async throws {
        let policy = workload.policy
        let environment = StepEnvironment(policy: policy, services: EngineServices())
        var dispatcher = InMemoryDispatcher(policy: policy)
        var handWritten = EffectBuffer()
        var plugins = EffectBuffer()
        for item in transactions {
            handWritten.removeAll()
            plugins.removeAll()
            let switchEnds = HandWrittenDispatch.effects(of: item.transaction, product: workload.handWritten[item.product.index],
                                                         into: &handWritten)
            let plansEnd = await dispatcher.dispatch(item.transaction, product: item.product)
            let pluginsEnd = await BarePlanDispatch.effects(of: item, policy: policy, environment: environment, into: &plugins)
            guard dispatcher.lastEffects == handWritten, plugins == handWritten, plansEnd == switchEnds, pluginsEnd == switchEnds else {
                let info = item.transaction.info
                throw BenchmarkError("""
                    transaction \(info.id) (\(info.productID), \(info.state.rawValue)): the effects differ, so comparing \
                    the dispatches is not fair:
                      plans:   \(Array(dispatcher.lastEffects)) (\(plansEnd ? "ran to the end" : "stopped"))
                      plugins: \(Array(plugins)) (\(pluginsEnd ? "ran to the end" : "stopped"))
                      switch:  \(Array(handWritten)) (\(switchEnds ? "ran to the end" : "stopped"))
                    """)
            }
        }
    }
}
