import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// Runs a dispatch's steps in order, from its first step not done, until
/// the plan reaches `finish` (which the queue calls only after everything
/// before it is committed), ends, or a step fails.
///
/// Steps return effects rather than applying them. Effects the engine keeps
/// itself go to `kept`, for the queue to commit with the dispatch's
/// progress; records kept elsewhere (`user-defaults`, `icloud`, `server`)
/// are written by their record store before the step counts as done, and
/// writing them is idempotent, so a crash between the write and the commit
/// repeats nothing visible.
struct PlanExecutor: Sendable {
    let policy: CompiledPolicy
    let services: EngineServices
    let recordStores: RecordStores
    let retry: RetryPolicy

    /// Where a run stopped.
    enum Stop: Equatable {
        /// At `finish`: everything before it is to be committed first.
        case atFinish
        /// Every step ran.
        case end
        /// A step failed (the dispatch says how).
        case failed
    }

    /// Strategies whose `persist` runs inline.
    let inlinePersistence: Set<PersistenceStrategy>
    /// Watches each step (the simulator); nil in apps.
    var stepProbe: StepProbe? = nil

    /// Runs steps from `dispatch.nextStep`. `finishCalled` says the store
    /// already finished the transaction, so the `finish` step counts as done.
    func run<Output: StepOutput>(_ dispatch: inout Dispatch, product: ProductPolicy?, finishCalled: Bool,
                                 into output: inout Output) async -> Stop {
        var finishCalled = finishCalled
        // Built only when a step runs through its plugin: it copies the product and the registry.
        var context: StepContext?
        while dispatch.nextStep < dispatch.steps.count {
            // `finish` is the queue's, whatever plugin is registered under its name.
            if dispatch.steps[dispatch.nextStep] == BuiltInStep.finish.rawValue {
                guard finishCalled else { return .atFinish }
                finishCalled = false
                output.keep(.finish)
                dispatch.advance()
                continue
            }
            let code = dispatch.codes?[dispatch.nextStep]
            if let stepProbe { await stepProbe.willRun(dispatch.transaction.info, dispatch.steps[dispatch.nextStep]) }
            let result: Result<Void, StepFailure>
            if let product, let code, let inline = runInline(code, dispatch.transaction, product, into: &output) {
                result = inline
            } else {
                if context == nil, let product {
                    context = StepContext(transaction: dispatch.transaction.info, product: product, plugins: policy.plugins, services: services)
                }
                result = await runStep(code: code, of: dispatch, context: context, into: &output)
            }
            if let stepProbe {
                let failure: StepFailure? = if case .failure(let failure) = result { failure } else { nil }
                stepProbe.didRun(dispatch.transaction.info, dispatch.steps[dispatch.nextStep], failure)
            }
            switch result {
            case .success:
                dispatch.advance()
            case .failure(let failure):
                if fail(&dispatch, step: dispatch.steps[dispatch.nextStep], failure, into: &output) { continue }
                return .failed
            }
        }
        dispatch.status = .done
        return .end
    }

    /// A built-in step's work, inline; nil when it must run through its plugin.
    /// The same effects as UnlockStep, GrantStep, NotifyStep, PresentErrorStep,
    /// and PersistStep with ReceiptPersistence or AppStatePersistence.
    @inline(__always)
    private func runInline<Output: StepOutput>(_ code: StepCode, _ transaction: StoreTransaction, _ product: ProductPolicy,
                                               into output: inout Output) -> Result<Void, StepFailure>? {
        switch code {
        case .unlock:
            if product.type != .consumable { output.keep(.own(product: product.id)) }
            for feature in product.unlocks { output.keep(.unlock(feature: feature)) }
        case .grant:
            let quantity = transaction.info.quantity
            guard quantity >= 1, quantity <= product.maxQuantity else {
                return .failure(.permanent("quantity \(quantity) of \(product.id) is outside 1...\(product.maxQuantity) (its max-quantity)"))
            }
            for grant in product.grants {
                let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
                guard !overflow else { return .failure(.permanent("\(grant.amount) × \(quantity) of \(grant.balance) overflows")) }
                output.keep(.grant(balance: grant.balance, amount: amount))
            }
        case .notify:
            output.tell(.notify(transaction.info))
        case .presentError:
            output.tell(.presentError(transaction.info, transaction.info.error ?? .unknown))
        case .persist:
            guard inlinePersistence.contains(product.persistence) else { return nil }
            if product.persistence == .appState {
                output.keep(.record(PersistenceRecord(strategy: .appState, key: product.id,
                                                      value: .transaction(id: transaction.id, quantity: transaction.info.quantity))))
            }
        case .plugin:
            return nil
        }
        return .success(())
    }

    /// Records a step's failure. In a `failed` situation the plan goes on
    /// (the transaction must be finished whatever happens): returns true.
    func fail<Output: StepOutput>(_ dispatch: inout Dispatch, step: String, _ failure: StepFailure, into output: inout Output) -> Bool {
        dispatch.lastError = "\(step): \(failure.reason)"
        if dispatch.isFailedSituation, step != BuiltInStep.finish.rawValue {
            output.tell(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: nil))
            dispatch.advance(keepingError: true)
            return true
        }
        if failure.isTransient {
            dispatch.attempts += 1
            dispatch.status = .waiting
            // Retries run on the wall clock, whatever clock entitlements use.
            let retryAt = Date().addingTimeInterval(retry.delay(afterFailures: dispatch.attempts))
            dispatch.retryAt = retryAt
            output.tell(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: retryAt))
        } else {
            dispatch.status = .halted
            dispatch.retryAt = nil
            output.tell(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: nil))
        }
        return false
    }

    private func runStep<Output: StepOutput>(code: StepCode?, of dispatch: Dispatch, context: StepContext?,
                                             into output: inout Output) async -> Result<Void, StepFailure> {
        let name = dispatch.steps[dispatch.nextStep]
        guard let context else {
            return .failure(.permanent("the product \(dispatch.transaction.info.productID) is not in the catalog; the transaction stays unfinished until an app version that sells it delivers it"))
        }
        let resolved: (any StepPlugin)?
        switch code {
        case .persist(let plugin)?, .plugin(let plugin)?: resolved = plugin
        default: resolved = policy.plugins.step(named: name)
        }
        guard let plugin = resolved else {
            return .failure(.permanent("no step '\(name)' is registered; register its plugin with PluginRegistry.register(_:)"))
        }
        let product = context.product
        let effects: [Effect]
        do {
            effects = try await plugin.run(context)
        } catch {
            return .failure(error)
        }
        for effect in effects {
            switch effect {
            case .record(let record) where record.strategy != .appState && record.strategy != .receipt:
                guard let store = recordStores.store(for: record.strategy) else {
                    return .failure(.permanent("\(product.id) keeps its record with '\(record.strategy.rawValue)', but the queue has no record store for it; pass one in QueueConfiguration.recordStores"))
                }
                let stored = StoredRecord(strategy: record.strategy, productID: record.key, value: record.value,
                                          transactionID: dispatch.transaction.id,
                                          applicationUsername: dispatch.transaction.info.applicationUsername,
                                          purchaseDate: dispatch.transaction.purchaseDate,
                                          expirationDate: SubscriptionTerm.expiration(of: product, bought: dispatch.transaction.purchaseDate,
                                                                                      storeExpiration: dispatch.transaction.expirationDate))
                do {
                    try await store.keep(stored)
                } catch {
                    return .failure(error)
                }
            case .notify:
                output.tell(.notify(dispatch.transaction.info))
            case .presentError(let code):
                output.tell(.presentError(dispatch.transaction.info, code))
            case .finish:
                // Only the `finish` step finishes, and only through the queue.
                continue
            default:
                output.keep(effect)
            }
        }
        return .success(())
    }
}

extension Dispatch {
    /// The step ran: on to the next.
    mutating func advance(keepingError: Bool = false) {
        nextStep += 1
        attempts = 0
        retryAt = nil
        if !keepingError { lastError = nil }
        status = .running
    }
}
