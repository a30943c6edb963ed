import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// Runs compiled plans with nothing durable: each transaction's steps run in
/// order, through the queue's own executor, and their effects go straight to
/// an in-memory ledger. What the queue does without the journal and the
/// store; the dispatch benchmark measures it against a hand-written switch.
package struct InMemoryDispatcher: Sendable {
    private let policy: CompiledPolicy
    private let executor: PlanExecutor
    private let planSteps: PlanSteps
    private var output = LedgerOutput()

    /// A dispatcher for a policy.
    package init(policy: CompiledPolicy, services: EngineServices = EngineServices(), recordStores: RecordStores = RecordStores()) {
        self.policy = policy
        planSteps = PlanSteps(policy)
        executor = PlanExecutor(policy: policy, services: services, recordStores: recordStores, retry: RetryPolicy(jitter: 0),
                                inlinePersistence: planSteps.inlinePersistence)
    }

    /// Runs a transaction's plan to its end (the store is not told of
    /// `finish`). Returns whether every step ran.
    @discardableResult
    package mutating func dispatch(_ transaction: StoreTransaction, product handle: ProductHandle) async -> Bool {
        let info = transaction.info
        let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
        var dispatch = Dispatch(transaction: transaction, slot: 0, sequence: 0, steps: planSteps.names[plan], nextStep: 0,
                                status: .running, attempts: 0, retryAt: nil, lastError: nil, codes: planSteps.codes[plan])
        output.transaction = transaction
        return await executor.run(&dispatch, product: policy.product(handle), finishCalled: true, into: &output) == .end
    }

    /// The entitlements the dispatched transactions gave.
    package func entitlements(now: Date = Date()) -> Entitlements {
        output.ledger.entitlements(policy: policy, elsewhere: [:], now: now)
    }

    /// How many effects of each kind were applied or told: custom effects,
    /// records, notifications, errors presented, transactions finished.
    package var counts: (custom: Int, records: Int, notifications: Int, errorsPresented: Int, finished: Int) {
        (output.custom, output.records, output.notifications, output.errorsPresented, output.finished)
    }
}

/// Applies effects to the ledger as they come, and counts what would go to
/// observers, the journal's other tables and the store.
struct LedgerOutput: StepOutput, Sendable {
    var ledger = EntitlementLedger()
    var transaction = StoreTransaction(TransactionInfo(id: "", productID: "", state: .purchasing), purchaseDate: Date(timeIntervalSince1970: 0))
    var custom = 0
    var records = 0
    var notifications = 0
    var errorsPresented = 0
    var finished = 0

    mutating func keep(_ effect: Effect) {
        switch effect {
        case .own(let product):
            if ledger.owned[product] == nil {
                ledger.own(product, .init(transactionID: transaction.id, purchaseDate: transaction.purchaseDate, expirationDate: nil))
            }
        case .unlock(let feature):
            ledger.unlock(feature, by: transaction.info.productID)
        case .grant(let balance, let amount):
            ledger.grant(balance, amount)
        case .record:
            records += 1
        case .custom:
            custom += 1
        case .finish:
            finished += 1
        case .content, .receiptVerified, .notify, .presentError:
            break
        }
    }

    mutating func tell(_ event: QueueEvent) {
        switch event {
        case .notify: notifications += 1
        case .presentError: errorsPresented += 1
        default: break
        }
    }
}
