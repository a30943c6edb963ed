import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// The loop: what the store delivers, classified against the journal, each new transaction's plan run and its
/// effects committed in batches, the store told to finish only after.
extension TransactionQueue {
    func runLoop() async {
        while true {
            let items = await inbox.take(limit: configuration.batchLimit)
            var updates: [StoreTransaction] = []
            var stopping = false
            for item in items {
                switch item {
                case .store(.updated(let transaction)):
                    updates.append(transaction)
                case .store(.restoreFinished):
                    await processBatch(updates: updates)
                    updates.removeAll()
                    // A restore brings the receipt (and the records kept elsewhere) up to
                    // date: products whose restored plan only downloads are owned through it.
                    await refreshElsewhere()
                    publishIfChanged()
                    await tell([.restoreFinished])
                case .store(.restoreFailed(let code)):
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await tell([.restoreFailed(code)])
                case .store(.revoked(let revocation)):
                    // What arrived before the revocation is handled first, so
                    // that what it delivered is there to be removed.
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await revoke(revocation)
                case .store(.reinstated(let reinstatement)):
                    // Most arrive for transactions never revoked (a backend may
                    // send one with each unrevoked update): those cost a lookup
                    // and leave the batch whole.
                    guard !revoked.isEmpty, reinstatement.transactionIDs.contains(where: revoked.contains) else { continue }
                    await processBatch(updates: updates)
                    updates.removeAll()
                    await reinstate(reinstatement)
                case .store(.promoted(let purchase)):
                    await promote(purchase)
                case .wake:
                    wakeAt = nil
                    let now = Date()
                    for (key, dispatch) in open where dispatch.status == .waiting && (dispatch.retryAt ?? now) <= now {
                        open[key]?.status = .running
                        replay.append(key)
                    }
                case .stop:
                    stopping = true
                }
            }
            await processBatch(updates: updates)
            settle()
            if stopping { return }
        }
    }

    /// A store event the journal failed to commit (nothing committed) is sent
    /// again after a pause, as a batch that failed to commit runs again; the
    /// observers hear of the failure.
    func resendLater(_ event: StoreEvent, journalFailed error: JournalError) async {
        let delay = configuration.retry.delay(afterFailures: 1)
        let inbox = inbox
        Task {
            try? await Task.sleep(for: .seconds(delay))
            inbox.send(.store(event))
        }
        await tell([.journalFailed(error)])
    }

    /// After a batch: schedule the next retry, wake those waiting for idle.
    func settle() {
        let next = open.values.filter { $0.status == .waiting }.compactMap(\.retryAt).min()
        if let next, wakeAt.map({ next < $0 }) ?? true {
            wakeAt = next
            let delay = max(0, next.timeIntervalSince(Date()))
            let inbox = inbox
            Task {
                try? await Task.sleep(for: .seconds(delay))
                inbox.send(.wake)
            }
        }
        if inbox.settle() {
            let waiters = idleWaiters
            idleWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Classifies updates, then runs the plans of the new ones and of those
    /// due again (replays first), committing in rounds: everything up to
    /// `finish`, then the store's finish, then `finish` and what follows it.
    func processBatch(updates: [StoreTransaction]) async {
        var work: [Dispatch] = []
        var events: [QueueEvent] = []
        for key in replay {
            if let dispatch = open[key], dispatch.status == .running { work.append(dispatch) }
        }
        replay.removeAll()
        var refinish: [StoreTransaction] = []
        var accepted: [DispatchKey: Int] = [:]
        // What the journal and the open dispatches know of this batch's
        // transactions, looked up once for the batch.
        var known: [String: [(slot: Int, rank: Int, status: DispatchStatus)]] = [:]
        if !updates.isEmpty {
            let ids = Set(updates.lazy.map(\.id))
            do {
                known = try journal.situations(of: ids)
            } catch {
                // Nothing is known, so nothing may run: the store delivers
                // these again at the next launch (they are unfinished).
                await tell([.journalFailed(error)])
                return
            }
            for (key, dispatch) in open where ids.contains(key.transactionID) {
                if !(known[key.transactionID]?.contains { $0.slot == key.slot } ?? false) {
                    known[key.transactionID, default: []].append((key.slot, dispatch.rank, dispatch.status))
                }
            }
        }
        var gracePeriodsChanged = false
        for transaction in updates {
            if let end = transaction.gracePeriodEnd, !revoked.contains(transaction.id) {
                gracePeriods[transaction.info.productID] = EntitlementLedger.Ownership(
                    transactionID: transaction.id, purchaseDate: transaction.purchaseDate, expirationDate: end)
                gracePeriodsChanged = true
            }
            switch classify(transaction, known: &known) {
            case .new(let dispatch):
                accepted[dispatch.key] = work.count
                work.append(dispatch)
                events.append(.updated(transaction))
            case .supersedes(let dispatch, let older):
                for key in older {
                    if let index = accepted[key] { work[index].status = .superseded } else if var stale = open[key] {
                        stale.status = .superseded
                        work.append(stale)
                    }
                }
                accepted[dispatch.key] = work.count
                work.append(dispatch)
                events.append(.updated(transaction))
            case .finishAgain(let reason):
                refinish.append(transaction)
                events.append(.ignored(transaction, reason))
            case .ignore(let reason):
                events.append(.ignored(transaction, reason))
                if reason == .duplicate, let end = transaction.expirationDate,
                   end > (laterVersions[transaction.id]?.expirationDate ?? .distantPast) {
                    laterVersions[transaction.id] = transaction
                }
            }
        }
        if gracePeriodsChanged {
            mergeElsewhere()
            publishIfChanged()
        }
        // A version of a subscription transaction done here whose end is later
        // (a renewal date the developer extended): the ownership follows it,
        // before the store is told to finish it; if the journal cannot keep
        // it, the store keeps it unfinished and delivers it again.
        refinish.removeAll { transaction in
            guard let error = extendOwnership(through: transaction) else { return false }
            events.append(.journalFailed(error))
            return true
        }
        // A transaction done here but delivered again by the store: its
        // finish did not reach the store; finishing again is harmless. A
        // revoked one is finished too: it has nothing left to deliver. What
        // the journal says of them is made durable first (as before any finish).
        if !refinish.isEmpty {
            do {
                try journal.makeDurable()
            } catch {
                // Not finished now: the store delivers them again.
                refinish.removeAll()
                events.append(.journalFailed(error))
            }
        }
        for transaction in refinish {
            do {
                try await store.finish(transactionID: transaction.id)
            } catch {
                // The store will deliver it again; nothing to keep.
            }
        }
        await tell(events)
        if !work.isEmpty { await run(&work) }
        await applyLaterVersions()
    }

    /// Moves the ends that later versions of open transactions carry, once
    /// their plans have owned the product; a version waits here while its
    /// plan is open (a step waiting for the network, say).
    func applyLaterVersions() async {
        guard !laterVersions.isEmpty else { return }
        var failures: [QueueEvent] = []
        for (id, transaction) in laterVersions.sorted(by: { $0.key < $1.key }) {
            if let error = extendOwnership(through: transaction) {
                failures.append(.journalFailed(error))
                continue
            }
            if revoked.contains(id) || !open.keys.contains(where: { $0.transactionID == id }) { laterVersions[id] = nil }
        }
        if !failures.isEmpty { await tell(failures) }
    }

    /// Moves a subscription's end to the later one a new version of the
    /// transaction owning it carries; nil, or the journal's failure.
    func extendOwnership(through transaction: StoreTransaction) -> JournalError? {
        let productID = transaction.info.productID
        guard let end = transaction.expirationDate, !revoked.contains(transaction.id), let handle = policy.product(id: productID),
              policy.product(handle).type == .autoRenewableSubscription,
              let owned = ledger.owned[productID]?.expirationDate, owned < end
        else { return nil }
        do {
            if try journal.extendOwnership(of: productID, through: transaction, until: end, ledger: &ledger) { publishIfChanged() }
            return nil
        } catch {
            return error
        }
    }

    enum Classification {
        case new(Dispatch)
        case supersedes(Dispatch, older: [DispatchKey])
        /// Ignored, and finished with the store (which still holds it).
        case finishAgain(IgnoredUpdate)
        case ignore(IgnoredUpdate)
    }

    /// Decides what an update is, from what is known of its transaction
    /// (the journal, the open dispatches, this batch so far), and notes a
    /// new situation in `known`.
    func classify(_ transaction: StoreTransaction,
                          known knownByTransaction: inout [String: [(slot: Int, rank: Int, status: DispatchStatus)]]) -> Classification {
        let info = transaction.info
        let slot = SituationSlot.slot(info.state, error: info.error)
        let rank = StateRank.of(info.state)
        if !revoked.isEmpty, revoked.contains(info.id) {
            // A final state is one the store holds unfinished: finishing it is
            // how the store stops delivering it. Earlier states it does not hold.
            return rank == StateRank.terminal ? .finishAgain(.revoked) : .ignore(.revoked)
        }
        let known = knownByTransaction[info.id] ?? []
        if let same = known.first(where: { $0.slot == slot }) {
            let finishes = same.status == .done && rank == StateRank.terminal
            return finishes ? .finishAgain(.duplicate) : .ignore(.duplicate)
        }
        let highest = known.map(\.rank).max() ?? -1
        if highest > rank { return .ignore(.outOfOrder) }
        if highest == StateRank.terminal { return .ignore(.conflicting) }
        sequence += 1
        let (steps, plan) = plan(for: info)
        let dispatch = Dispatch(transaction: transaction, slot: slot, sequence: sequence, steps: steps, nextStep: 0,
                                status: .running, attempts: 0, retryAt: nil, lastError: nil, plan: plan)
        let older = known.filter { $0.status != .done && $0.status != .superseded }.map { DispatchKey(transactionID: info.id, slot: $0.slot) }
        knownByTransaction[info.id, default: []].append((slot: slot, rank: rank, status: .running))
        return older.isEmpty ? .new(dispatch) : .supersedes(dispatch, older: older)
    }

    /// A transaction's plan in the policy: its step names and its position.
    func plan(for info: TransactionInfo) -> (steps: [String], plan: Int?) {
        if let handle = policy.product(id: info.productID) {
            let plan = policy.planIndex(for: handle, state: info.state, error: info.error)
            return (planSteps.names[plan], plan)
        }
        // Not in the catalog: a failed one is still finished; a paid one
        // halts at its first step (kept unfinished, never lost) until a
        // version of the app that sells the product plans it anew.
        switch info.state {
        case .failed: return ([BuiltInStep.finish.rawValue], nil)
        case .purchased, .restored: return ([BuiltInStep.unlock.rawValue, BuiltInStep.finish.rawValue], nil)
        case .purchasing, .deferred: return ([], nil)
        }
    }

    /// Plans a journalled dispatch that has no step done with the policy of now.
    func replan(_ dispatch: inout Dispatch) {
        let (steps, plan) = plan(for: dispatch.transaction.info)
        dispatch.steps = steps
        dispatch.plan = plan
    }

    /// Runs dispatches in rounds until none can go further now.
    func run(_ work: inout [Dispatch]) async {
        var round = Array(work.indices)
        var finishCalled = Set<Int>()
        while !round.isEmpty {
            var batch = JournalBatch()
            var events: [QueueEvent] = []
            var atFinish: [Int] = []
            let before = work
            for index in round {
                var output = StepOutput(tellsObservers: true)
                let handle = policy.product(id: work[index].transaction.info.productID)
                if work[index].status == .running {
                    let stop = await executor.run(&work[index], product: handle, finishCalled: finishCalled.contains(index), into: &output)
                    if stop == .atFinish { atFinish.append(index) }
                }
                events.append(contentsOf: output.events)
                let position = batch.dispatches.count
                batch.dispatches.append(work[index])
                if let handle {
                    let product = policy.product(handle)
                    // A revoked transaction's deliveries are dropped here, at
                    // the commit, rather than revoked again after it: every
                    // path (a new update, a retry, a replay after a crash)
                    // goes through this point, and no commit ever holds them.
                    // Its plan runs on to `finish`, so the store stops
                    // delivering it.
                    // A prorated refund leaves the rest of a consumable's grants
                    // paid for: they are kept, less its share (the journal takes it).
                    let id = work[index].transaction.id
                    let delivers = revoked.isEmpty || !revoked.contains(id)
                    let share = delivers || partialRevocations.isEmpty ? nil : partialRevocations[id]
                    for effect in output.effects where delivers || !Self.isDelivery(effect) || (share != nil && Self.isGrant(effect)) {
                        batch.effects.append((dispatch: position, effect: effect, product: product))
                    }
                    if let share { batch.partialRevocations[id] = share }
                }
            }
            // Observers hear of a step before it counts as done: at least once.
            await tell(events)
            configuration.faultInjection?(.beforeCommit)
            do {
                // Durable before the store hears of any finish, in every mode:
                // a finished transaction is never delivered again, so a
                // power loss must not take back what its steps delivered.
                if try journal.commit(batch, durable: !atFinish.isEmpty, ledger: &ledger) { publishIfChanged() }
            } catch {
                // Nothing of the batch committed: put the dispatches back as
                // they were, to run again after a pause.
                let retryAt = Date().addingTimeInterval(configuration.retry.delay(afterFailures: 1))
                for index in round {
                    var restored = before[index]
                    if restored.status == .running || restored.status == .done {
                        restored.status = .waiting
                        restored.retryAt = retryAt
                    }
                    open[restored.key] = restored
                }
                await tell([.journalFailed(error)])
                return
            }
            configuration.faultInjection?(.afterCommit)
            for index in round {
                work[index].isJournalled = true
                let dispatch = work[index]
                if dispatch.status == .done || dispatch.status == .superseded {
                    open[dispatch.key] = nil
                } else {
                    open[dispatch.key] = dispatch
                }
            }
            // Finish with the store what is committed up to its `finish`.
            var next: [Int] = []
            var removed: [QueueEvent] = []
            finishCalled.removeAll()
            for index in atFinish {
                let info = work[index].transaction.info
                do {
                    configuration.faultInjection?(.beforeFinish)
                    try await store.finish(transactionID: info.id)
                    configuration.faultInjection?(.afterFinish)
                    finishCalled.insert(index)
                    removed.append(.removed(info))
                } catch {
                    var output = StepOutput(tellsObservers: true)
                    _ = executor.fail(&work[index], step: BuiltInStep.finish.rawValue, error, into: &output)
                    removed.append(contentsOf: output.events)
                }
                next.append(index)
            }
            await tell(removed)
            round = next
        }
    }

    /// Whether an effect delivers something a revocation takes back (custom
    /// effects are a plugin's own account of what it did, and stay).
    static func isDelivery(_ effect: Effect) -> Bool {
        switch effect {
        case .own, .unlock, .grant, .record, .content: true
        case .receiptVerified, .notify, .presentError, .finish, .custom: false
        }
    }

    static func isGrant(_ effect: Effect) -> Bool {
        if case .grant = effect { true } else { false }
    }

    func tell(_ events: [QueueEvent]) async {
        guard !events.isEmpty else { return }
        for observer in observers {
            for event in events { await observer.queue(event) }
        }
    }
}
