import Foundation
import StorekeeperEngine

/// Runs compiled plans with nothing durable: each transaction's steps run in
/// order and their effects go to an in-memory ledger. What the queue does
/// without the journal and the store; the dispatch benchmark measures it
/// against a hand-written switch.
package struct InMemoryDispatcher: Sendable {
    private let policy: CompiledPolicy
    private let executor: PlanExecutor
    private let planSteps: PlanSteps
    private var ledger = EntitlementLedger()
    private var sequence: Int64 = 0

    /// A dispatcher for a policy.
    package init(policy: CompiledPolicy, services: EngineServices = EngineServices(), recordStores: RecordStores = RecordStores()) {
        self.policy = policy
        executor = PlanExecutor(policy: policy, services: services, recordStores: recordStores, retry: RetryPolicy(jitter: 0))
        planSteps = PlanSteps(policy)
    }

    /// Runs a transaction's plan to its end (the store is not told of
    /// `finish`). Returns whether every step ran.
    @discardableResult
    package mutating func dispatch(_ transaction: StoreTransaction, product handle: ProductHandle) async -> Bool {
        let info = transaction.info
        let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
        sequence += 1
        var dispatch = Dispatch(transaction: transaction, slot: 0, sequence: sequence, steps: planSteps.names[plan], nextStep: 0,
                                status: .running, attempts: 0, retryAt: nil, lastError: nil, plugins: planSteps.plugins[plan])
        let product = policy.product(handle)
        var kept: [Effect] = []
        var events: [QueueEvent] = []
        let stop = await executor.run(&dispatch, product: product, finishCalled: true, kept: &kept, events: &events)
        for effect in kept {
            switch effect {
            case .own(let id):
                ledger.own(id, .init(transactionID: info.id, purchaseDate: transaction.purchaseDate, expirationDate: nil))
            case .unlock(let feature):
                ledger.unlock(feature, by: product.id)
            case .grant(let balance, let amount):
                ledger.grant(balance, amount)
            default:
                break
            }
        }
        return stop == .end
    }

    /// The entitlements the dispatched transactions gave.
    package func entitlements(now: Date = Date()) -> Entitlements {
        ledger.entitlements(policy: policy, elsewhere: [:], now: now)
    }
}
