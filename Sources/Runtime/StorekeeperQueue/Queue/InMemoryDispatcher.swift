package import Foundation
import StorekeeperCore
package import StorekeeperRuntime

/// Runs compiled plans with nothing durable: each transaction's steps run in
/// order, through the queue's own executor, into one effect buffer, which is
/// then applied to an in-memory ledger. What the queue does without the
/// journal and the store; the dispatch benchmark measures it against a
/// hand-written switch that appends the same effects and applies them to
/// the same kind of ledger.
package struct InMemoryDispatcher: Sendable {
    private let policy: CompiledPolicy
    private let executor: PlanExecutor
    private var output = StepOutput(tellsObservers: false)
    /// What the dispatched transactions delivered.
    package private(set) var ledger = EffectLedger()

    /// How far a transaction's plan got without suspending.
    private enum InlineRun {
        /// The plan stopped: whether it ran to its end.
        case stopped(ranToEnd: Bool)
        /// It reached a step that is an `async` call to its plugin (or one
        /// that failed); the plan goes on from there with the executor's
        /// full run.
        case atStep(Int, finishCalled: Bool)
    }

    /// A dispatcher for a policy.
    package init(policy: CompiledPolicy, services: EngineServices = EngineServices(), recordStores: RecordStores = RecordStores()) {
        self.policy = policy
        executor = PlanExecutor(policy: policy, planSteps: PlanSteps(policy), services: services, recordStores: recordStores,
                                retry: RetryPolicy(jitter: 0))
    }

    /// Runs a transaction's plan to its end (the store is not told of
    /// `finish`) and applies its effects to ``ledger``. Returns whether every
    /// step ran. A plan whose steps all run inline (built-in steps whose
    /// plugin is the built-in one, and `SynchronousStepPlugin`s) runs without
    /// suspending.
    @discardableResult
    package mutating func dispatch(_ transaction: StoreTransaction, product handle: ProductHandle) async -> Bool {
        switch dispatchInline(transaction, product: handle) {
        case .stopped(let ranToEnd):
            return ranToEnd
        case .atStep(let step, let finishCalled):
            return await dispatch(transaction, product: handle, from: step, finishCalled: finishCalled)
        }
    }

    /// Runs a transaction's plan from its first step for as long as its
    /// steps run inline. When the plan stops, its effects are applied.
    private mutating func dispatchInline(_ transaction: StoreTransaction, product handle: ProductHandle) -> InlineRun {
        let info = transaction.info
        let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
        output.effects.removeAll()
        var step = 0
        var finishCalled = true
        switch executor.runInline(plan: plan, from: &step, of: transaction, product: handle, finishCalled: &finishCalled, into: &output) {
        case .end:
            ledger.apply(output.effects, of: transaction)
            return .stopped(ranToEnd: true)
        case .atFinish:
            // A second `finish`: the store would have to be told first.
            ledger.apply(output.effects, of: transaction)
            return .stopped(ranToEnd: false)
        case .failed, .atPluginStep:
            // The executor's full run handles plugins and failures (a failed
            // inline step appended nothing, and fails again the same way).
            return .atStep(step, finishCalled: finishCalled)
        }
    }

    /// Runs the rest of a transaction's plan, from `step`, after
    /// ``dispatchInline(_:product:)`` stopped there, and applies its effects.
    private mutating func dispatch(_ transaction: StoreTransaction, product handle: ProductHandle, from step: Int,
                                   finishCalled: Bool) async -> Bool {
        let info = transaction.info
        let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
        var dispatch = Dispatch(transaction: transaction, slot: 0, sequence: 0, steps: executor.planSteps.names[plan], nextStep: step,
                                status: .running, attempts: 0, retryAt: nil, lastError: nil, plan: plan)
        let stop = await executor.run(&dispatch, product: handle, finishCalled: finishCalled, into: &output)
        ledger.apply(output.effects, of: transaction)
        return stop == .end
    }

    /// The effects of the last transaction dispatched, in order.
    package var lastEffects: EffectBuffer { output.effects }

    /// The entitlements the dispatched transactions gave.
    package func entitlements(now: Date = Date()) -> Entitlements {
        ledger.entitlements(policy: policy, now: now)
    }
}
