import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// Runs a dispatch's steps in order, from its first step not done, until
/// the plan reaches `finish` (which the queue calls only after everything
/// before it is committed), ends, or a step fails.
///
/// Steps append effects to the output rather than applying them: the queue
/// commits them with the dispatch's progress. Records kept elsewhere
/// (`user-defaults`, `icloud`, `server`) are written by their record store
/// before the step counts as done, and writing them is idempotent, so a
/// crash between the write and the commit repeats nothing visible.
///
/// Built-in steps whose plugin is the built-in one run inline (`StepCode`),
/// reading the policy's product in place, and so do `SynchronousStepPlugin`s;
/// a stretch of such steps runs without suspending
/// (``runInline(plan:from:of:product:finishCalled:into:)``). Only another
/// plugin's step is an `async` call. A plugin's context refers to the
/// executor's one `StepEnvironment`: nothing of the product is copied per
/// transaction.
struct PlanExecutor: Sendable {
    let policy: CompiledPolicy
    let planSteps: PlanSteps
    let environment: StepEnvironment
    let recordStores: RecordStores
    let retry: RetryPolicy
    /// Watches each step (the simulator); nil in apps.
    let stepProbe: StepProbe?
    /// Whether a `SynchronousStepPlugin` runs inline: not when there are
    /// record stores, which the records it asks for would have to be
    /// written to (and writing waits).
    private let runsSynchronousPluginsInline: Bool

    /// Where a run stopped.
    enum Stop: Equatable {
        /// At `finish`: everything before it is to be committed first.
        case atFinish
        /// Every step ran.
        case end
        /// A step failed (the dispatch says how).
        case failed
    }

    /// Where a stretch of inline steps stopped.
    enum InlineStop {
        /// Every step ran.
        case end
        /// At `finish`, which the store has not done yet.
        case atFinish
        /// The step failed.
        case failed(StepFailure)
        /// At a step that runs through its plugin.
        case atPluginStep
    }

    init(policy: CompiledPolicy, planSteps: PlanSteps, services: EngineServices, recordStores: RecordStores, retry: RetryPolicy,
         stepProbe: StepProbe? = nil) {
        self.policy = policy
        self.planSteps = planSteps
        environment = StepEnvironment(policy: policy, services: services)
        self.recordStores = recordStores
        self.retry = retry
        self.stepProbe = stepProbe
        runsSynchronousPluginsInline = recordStores.userDefaults == nil && recordStores.iCloud == nil && recordStores.server == nil
    }

    /// Runs steps from `dispatch.nextStep`. `finishCalled` says the store
    /// already finished the transaction, so the `finish` step counts as done.
    /// `product` is nil when the transaction's product is not in the policy.
    func run(_ dispatch: inout Dispatch, product: ProductHandle?, finishCalled: Bool, into output: inout StepOutput) async -> Stop {
        var finishCalled = finishCalled
        while dispatch.nextStep < dispatch.steps.count {
            // With no probe to tell of each step, the steps that run inline go in one stretch.
            if stepProbe == nil, let plan = dispatch.plan, let product {
                var step = dispatch.nextStep
                let stop = runInline(plan: plan, from: &step, of: dispatch.transaction, product: product, finishCalled: &finishCalled,
                                     into: &output)
                if step > dispatch.nextStep { dispatch.advance(to: step) }
                switch stop {
                case .end:
                    dispatch.status = .done
                    return .end
                case .atFinish:
                    return .atFinish
                case .failed(let failure):
                    if fail(&dispatch, step: dispatch.steps[step], failure, into: &output) { continue }
                    return .failed
                case .atPluginStep:
                    break
                }
            }
            // One step: a plugin step, or any step while a probe watches or for a replayed dispatch.
            let step = dispatch.nextStep
            let code: StepCode
            let position = dispatch.plan.map { planSteps.firstStep(of: $0) + step }
            if let position {
                code = planSteps.code(at: position)
            } else {
                // A replayed dispatch has no plan number: its steps go through their plugins, found by name.
                code = dispatch.steps[step] == BuiltInStep.finish.rawValue ? .finish : .plugin
            }
            if code == .finish {
                guard finishCalled else { return .atFinish }
                finishCalled = false
                output.effects.append(.finish)
                dispatch.advance()
                continue
            }
            if let stepProbe { await stepProbe.willRun(dispatch.transaction.info, dispatch.steps[step]) }
            let failure: StepFailure?
            let outcome: InlineOutcome = if let product, let position {
                runInlineStep(code, at: position, dispatch.transaction, product, into: &output)
            } else {
                .throughPlugin
            }
            switch outcome {
            case .done:
                failure = nil
            case .failed(let inline):
                failure = inline
            case .throughPlugin:
                failure = await runPlugin(of: dispatch, product: product, into: &output)
            }
            stepProbe?.didRun(dispatch.transaction.info, dispatch.steps[step], failure)
            if let failure {
                if fail(&dispatch, step: dispatch.steps[step], failure, into: &output) { continue }
                return .failed
            }
            dispatch.advance()
        }
        dispatch.status = .done
        return .end
    }

    /// Runs plan `plan`'s steps from `step` for as long as they run inline,
    /// moving `step` past each one that ran: without suspending, and
    /// without copying the transaction or the product. `finish` counts as
    /// done once if `finishCalled` (which it then clears).
    func runInline(plan: Int, from step: inout Int, of transaction: StoreTransaction, product: ProductHandle,
                   finishCalled: inout Bool, into output: inout StepOutput) -> InlineStop {
        let first = planSteps.firstStep(of: plan)
        let count = planSteps.stepCount(of: plan)
        while step < count {
            let code = planSteps.code(at: first + step)
            if code == .finish {
                guard finishCalled else { return .atFinish }
                finishCalled = false
                output.effects.append(.finish)
            } else {
                switch runInlineStep(code, at: first + step, transaction, product, into: &output) {
                case .done: break
                case .failed(let failure): return .failed(failure)
                case .throughPlugin: return .atPluginStep
                }
            }
            step += 1
        }
        return .end
    }

    /// What running one step inline came to.
    private enum InlineOutcome {
        case done
        case failed(StepFailure)
        /// Not a step that runs inline: its plugin runs it.
        case throughPlugin
    }

    /// A step's work, inline. For a built-in step: the same effects as
    /// UnlockStep, GrantStep, NotifyStep, PresentErrorStep, and PersistStep
    /// with ReceiptPersistence or AppStatePersistence, and like them, none
    /// when the step fails; fields are read from the policy's product in
    /// place. For a synchronous plugin: what it appends. `position` is the
    /// step's in `PlanSteps`' flat arrays.
    @inline(__always)
    private func runInlineStep(_ code: StepCode, at position: Int, _ transaction: StoreTransaction, _ handle: ProductHandle,
                               into output: inout StepOutput) -> InlineOutcome {
        let index = handle.index
        // Scalars are read before anything is appended: reading them after
        // made the compiler copy the whole transaction (appending might, as
        // far as it can tell, write where the transaction is).
        let quantity = transaction.info.quantity
        switch code {
        case .unlock:
            if policy.products[index].type != .consumable { output.effects.append(.own(product: policy.products[index].id)) }
            for feature in policy.products[index].unlocks { output.effects.append(.unlock(feature: feature)) }
        case .grant:
            let maxQuantity = policy.products[index].maxQuantity
            guard quantity >= 1, quantity <= maxQuantity else {
                return .failed(.permanent("quantity \(quantity) of \(policy.products[index].id) is outside 1...\(maxQuantity) (its max-quantity)"))
            }
            let start = output.effects.count
            for grant in policy.products[index].grants {
                let (amount, overflow) = grant.amount.multipliedReportingOverflow(by: quantity)
                guard !overflow else {
                    output.effects.discard(from: start)
                    return .failed(.permanent("\(grant.amount) × \(quantity) of \(grant.balance) overflows"))
                }
                output.effects.append(.grant(balance: grant.balance, amount: amount))
            }
        case .notify:
            let state = transaction.info.state
            output.tell(.notify(transaction.info))
            output.effects.append(.notify(state))
        case .presentError:
            let error = transaction.info.error ?? .unknown
            output.tell(.presentError(transaction.info, error))
            output.effects.append(.presentError(error))
        case .persist:
            let strategy = policy.products[index].persistence
            guard planSteps.persistsInline(strategy) else { return .throughPlugin }
            if strategy == .appState {
                let record = PersistenceRecord(strategy: .appState, key: policy.products[index].id,
                                               value: .transaction(id: transaction.id, quantity: quantity))
                output.effects.append(.record(record))
            }
        case .synchronousPlugin:
            guard runsSynchronousPluginsInline, let step = planSteps.synchronousPlugin(at: position) else { return .throughPlugin }
            let start = output.effects.count
            do {
                try step.plugin.runSynchronously(StepContext(transaction: transaction.info, product: handle, in: environment), into: &output.effects)
            } catch {
                output.effects.discard(from: start)
                return .failed(error)
            }
            if let failure = settle(from: start, of: transaction, product: handle, into: &output) { return .failed(failure) }
        case .plugin, .finish:
            return .throughPlugin
        }
        return .done
    }

    /// What a synchronous plugin appended from `start`, settled without
    /// waiting (there are no record stores): notifications and errors told,
    /// a `finish` dropped; a record for a store fails the step, which then
    /// has no effect.
    private func settle(from start: Int, of transaction: StoreTransaction, product handle: ProductHandle,
                        into output: inout StepOutput) -> StepFailure? {
        var position = start
        while position < output.effects.count {
            switch output.effects[position] {
            case .record(let record) where record.strategy != .appState && record.strategy != .receipt:
                output.effects.discard(from: start)
                return Self.noStore(for: record, product: policy.products[handle.index].id)
            case .notify:
                output.tell(.notify(transaction.info))
            case .presentError(let code):
                output.tell(.presentError(transaction.info, code))
            case .finish:
                // Only the `finish` step finishes, and only through the queue.
                output.effects.remove(at: position)
                continue
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// The failure of a step whose record no store keeps.
    private static func noStore(for record: PersistenceRecord, product: String) -> StepFailure {
        .permanent("\(product) keeps its record with '\(record.strategy.rawValue)', but the queue has no record store for it; pass one in QueueConfiguration.recordStores")
    }

    /// Records a step's failure. In a `failed` situation the plan goes on
    /// (the transaction must be finished whatever happens): returns true.
    func fail(_ dispatch: inout Dispatch, step: String, _ failure: StepFailure, into output: inout StepOutput) -> Bool {
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

    /// Runs the current step through its plugin, which appends to the
    /// output's effects; then writes the records it kept elsewhere, tells
    /// observers of its notifications and errors, and drops a `finish` it
    /// asked for (only the `finish` step finishes, through the queue). On
    /// failure, what the step appended is dropped and the failure returned.
    @inline(__always)
    private func runPlugin(of dispatch: Dispatch, product: ProductHandle?, into output: inout StepOutput) async -> StepFailure? {
        let name = dispatch.steps[dispatch.nextStep]
        guard let product else {
            return .permanent("the product \(dispatch.transaction.info.productID) is not in the catalog; the transaction stays unfinished until an app version that sells it delivers it")
        }
        let resolved: (any StepPlugin)?
        if let plan = dispatch.plan {
            resolved = planSteps.plugin(at: planSteps.firstStep(of: plan) + dispatch.nextStep)
        } else {
            resolved = policy.plugins.step(named: name)
        }
        guard let plugin = resolved else {
            return .permanent("no step '\(name)' is registered; register its plugin with PluginRegistry.register(_:)")
        }
        let context = StepContext(transaction: dispatch.transaction.info, product: product, in: environment)
        let start = output.effects.count
        do {
            try await plugin.run(context, into: &output.effects)
        } catch {
            output.effects.discard(from: start)
            return error
        }
        var position = start
        while position < output.effects.count {
            switch output.effects[position] {
            case .record(let record) where record.strategy != .appState && record.strategy != .receipt:
                if let failure = await keepElsewhere(record, of: dispatch, product: context.product) {
                    output.effects.discard(from: start)
                    return failure
                }
            case .notify:
                output.tell(.notify(dispatch.transaction.info))
            case .presentError(let code):
                output.tell(.presentError(dispatch.transaction.info, code))
            case .finish:
                // Only the `finish` step finishes, and only through the queue.
                output.effects.remove(at: position)
                continue
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// Writes a record to the store of its strategy: nil when written.
    private func keepElsewhere(_ record: PersistenceRecord, of dispatch: Dispatch, product: ProductPolicy) async -> StepFailure? {
        guard let store = recordStores.store(for: record.strategy) else { return Self.noStore(for: record, product: product.id) }
        let stored = StoredRecord(strategy: record.strategy, productID: record.key, value: record.value,
                                  transactionID: dispatch.transaction.id,
                                  applicationUsername: dispatch.transaction.info.applicationUsername,
                                  purchaseDate: dispatch.transaction.purchaseDate,
                                  expirationDate: SubscriptionTerm.expiration(of: product, bought: dispatch.transaction.purchaseDate,
                                                                              storeExpiration: dispatch.transaction.expirationDate),
                                  quantity: dispatch.transaction.info.quantity)
        do {
            try await store.keep(stored)
        } catch {
            return error
        }
        return nil
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

    /// The steps before `step` ran: on to it (as many ``advance(keepingError:)``).
    mutating func advance(to step: Int) {
        nextStep = step
        attempts = 0
        retryAt = nil
        lastError = nil
        status = .running
    }
}
