import Foundation
import StorekeeperCatalog
import StorekeeperEngine
import StorekeeperPolicy

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

    /// Runs steps from `dispatch.nextStep`. `finishCalled` says the store
    /// already finished the transaction, so the `finish` step counts as done.
    func run(_ dispatch: inout Dispatch, product: ProductPolicy?, finishCalled: Bool,
             kept: inout [Effect], events: inout [QueueEvent]) async -> Stop {
        var finishCalled = finishCalled
        // One context for every step of the run: building it copies the product and the registry.
        let context = product.map { StepContext(transaction: dispatch.transaction.info, product: $0, plugins: policy.plugins, services: services) }
        while dispatch.nextStep < dispatch.steps.count {
            let name = dispatch.steps[dispatch.nextStep]
            if name == BuiltInStep.finish.rawValue {
                guard finishCalled else { return .atFinish }
                finishCalled = false
                kept.append(.finish)
                dispatch.advance()
                continue
            }
            switch await runStep(named: name, of: dispatch, context: context, events: &events) {
            case .success(let effects):
                kept.append(contentsOf: effects)
                dispatch.advance()
            case .failure(let failure):
                if fail(&dispatch, step: name, failure, events: &events) { continue }
                return .failed
            }
        }
        dispatch.status = .done
        return .end
    }

    /// Records a step's failure. In a `failed` situation the plan goes on
    /// (the transaction must be finished whatever happens): returns true.
    func fail(_ dispatch: inout Dispatch, step: String, _ failure: StepFailure, events: inout [QueueEvent]) -> Bool {
        dispatch.lastError = "\(step): \(failure.reason)"
        if dispatch.isFailedSituation, step != BuiltInStep.finish.rawValue {
            events.append(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: nil))
            dispatch.advance(keepingError: true)
            return true
        }
        if failure.isTransient {
            dispatch.attempts += 1
            dispatch.status = .waiting
            // Retries run on the wall clock, whatever clock entitlements use.
            let retryAt = Date().addingTimeInterval(retry.delay(afterFailures: dispatch.attempts))
            dispatch.retryAt = retryAt
            events.append(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: retryAt))
        } else {
            dispatch.status = .halted
            dispatch.retryAt = nil
            events.append(.stepFailed(dispatch.transaction.info, step: step, failure: failure, retryAt: nil))
        }
        return false
    }

    private func runStep(named name: String, of dispatch: Dispatch, context: StepContext?,
                         events: inout [QueueEvent]) async -> Result<[Effect], StepFailure> {
        guard let context else {
            return .failure(.permanent("the product \(dispatch.transaction.info.productID) is not in the catalog; the transaction stays unfinished until an app version that sells it delivers it"))
        }
        guard let plugin = dispatch.plugins?[dispatch.nextStep] ?? policy.plugins.step(named: name) else {
            return .failure(.permanent("no step '\(name)' is registered; register its plugin with PluginRegistry.register(_:)"))
        }
        let product = context.product
        let effects: [Effect]
        do {
            effects = try await plugin.run(context)
        } catch {
            return .failure(error)
        }
        var kept: [Effect] = []
        kept.reserveCapacity(effects.count)
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
                events.append(.notify(dispatch.transaction.info))
            case .presentError(let code):
                events.append(.presentError(dispatch.transaction.info, code))
            case .finish:
                // Only the `finish` step finishes, and only through the queue.
                continue
            default:
                kept.append(effect)
            }
        }
        return .success(kept)
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
