import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// Rocket Racer's own step: a line in the support log for every coin
/// purchase delivered. Catalogs may name `audit-log` once it is registered.
/// It never waits, so it is synchronous: the queue calls it inline.
struct AuditLogStep: SynchronousStepPlugin {
    let name = "audit-log"

    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: name, detail: "\(context.transaction.productID) x\(context.transaction.quantity)"))
    }
}

/// Loads the game's policy (its catalog, or the JSON `storekeeper compile`
/// wrote) with the game's plugin registered.
func loadRocketRacerPolicy(from path: String) throws -> CompiledPolicy {
    var plugins = PluginRegistry()
    try plugins.register(AuditLogStep())
    return try PolicyLoader(plugins: plugins).load(contentsOf: path)
}

/// Runs one transaction's plan and returns the effects its steps ask for.
/// (The transaction queue does this durably, exactly once; this is the
/// bare dispatch.)
func effects(of transaction: TransactionInfo, in policy: CompiledPolicy) async throws -> [Effect] {
    guard let product = policy.product(id: transaction.productID) else { return [] }
    let plan = policy.plan(for: product, state: transaction.state, error: transaction.error)
    let context = StepContext(transaction: transaction, product: policy.product(product), plugins: policy.plugins)
    var effects = EffectBuffer()
    for step in plan.steps {
        try await step.plugin.run(context, into: &effects)
    }
    return Array(effects)
}
