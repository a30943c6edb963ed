import Foundation
import StorekeeperCore
import StorekeeperRuntime

extension TransactionQueue {
    /// The longest key a spend may have, in bytes of UTF-8.
    static let maxSpendKeyLength = 256

    /// Spends `amount` of a balance under `key`, the app's idempotency key,
    /// and returns what remains.
    ///
    /// - Durable: the spend is in the journal (flushed, in every durability
    ///   mode) before this returns.
    /// - Idempotent: the same key with the same amount and balance returns
    ///   the first answer and spends nothing more, however often it is
    ///   called, after a crash included; with another amount or balance it
    ///   fails with ``SpendError/keyReused(key:first:asked:)``.
    /// - Never below zero: asking more than the balance fails with
    ///   ``SpendError/insufficientBalance(balance:available:asked:detail:)``.
    /// - Where the balance is kept (``BalanceKeeping``): `device`, in the
    ///   journal only. `icloud`, also in the iCloud store (a
    ///   ``SpendRecordStore``), so that the user's other devices subtract
    ///   it. `server`, sent to the server first (`PUT /v1/spends/{key}`),
    ///   journalled as pending before it is sent so that a crash before the
    ///   answer sends the same key again; the server's `remaining` is what
    ///   the entitlements show.
    ///
    /// The entitlements (and their stream) show the spend at once.
    public func spend(_ amount: Int, of balance: String, key: String) async throws(SpendError) -> Int {
        guard started else { throw .notStarted }
        guard amount >= 1 else { throw .invalidAmount(amount) }
        guard policy.balances.contains(balance) else {
            throw .unknownBalance(balance, suggestion: Suggestion.nearest(to: balance, in: policy.balances))
        }
        guard !key.isEmpty, key.utf8.count <= Self.maxSpendKeyLength,
              !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidKey(key)
        }
        let keeping = book.keeping[balance] ?? .device
        let asked = JournalSpend(key: key, balance: balance, amount: amount, keeping: keeping, state: .pending, remaining: nil,
                                 date: configuration.now())
        if let first = book.local[key] { return try await again(first, asked: asked) }
        let spendStore = configuration.recordStores.iCloud as? any SpendRecordStore
        switch keeping {
        case .icloud:
            guard let spendStore else {
                throw .notConfigured(balance: balance, missing: "in iCloud, and RecordStores.iCloud is not a SpendRecordStore that can keep spends (SyncedKeyValueStore is one)")
            }
            // What the other devices spent, as of now: the checks below see it.
            await readSynced(spendStore)
            if let other = book.synced[key] {
                // Another device made this spend: it is the same one, applied once.
                guard other.balance == balance, other.amount == amount else {
                    throw .keyReused(key: key, first: "\(other.amount) \(other.balance) on another device", asked: asked.summary)
                }
                return entitlements().balance(balance)
            }
        case .server:
            guard configuration.services.server != nil else {
                throw .notConfigured(balance: balance, missing: "on the server, and the configuration's EngineServices has no server transport")
            }
        case .device:
            break
        }
        configuration.faultInjection?(.beforeSpend)
        let available = entitlements().balance(balance)
        guard amount <= available else {
            throw .insufficientBalance(balance: balance, available: available, asked: amount, detail: nil)
        }
        var spend = asked
        if keeping == .device {
            spend.state = .applied
            spend.remaining = available - amount
        }
        let claimed: JournalSpend?
        do {
            claimed = try journal.claimSpend(spend)
        } catch {
            throw .journal(error)
        }
        // Another call with this key got there first while this one waited for iCloud.
        if let claimed { return try await again(claimed, asked: asked) }
        book.note(spend)
        publishIfChanged()
        configuration.faultInjection?(.spendJournalled)
        await configuration.spendProbe?(.spendJournalled, key)
        if keeping == .device { return spend.remaining ?? 0 }
        return try await send(spend)
    }

    /// A key spent before: the first answer, or, while it is pending, sent again.
    private func again(_ first: JournalSpend, asked: JournalSpend) async throws(SpendError) -> Int {
        guard first.balance == asked.balance, first.amount == asked.amount else {
            throw .keyReused(key: asked.key, first: first.summary, asked: asked.summary)
        }
        if first.state == .applied { return first.remaining ?? 0 }
        return try await send(first)
    }

    /// Sends a pending spend to the iCloud store or the server and marks it
    /// applied; a refusal removes it; a passing failure leaves it pending.
    private func send(_ spend: JournalSpend) async throws(SpendError) -> Int {
        var remaining: Int
        switch spend.keeping {
        case .device:
            return spend.remaining ?? 0
        case .icloud:
            guard let spendStore = configuration.recordStores.iCloud as? any SpendRecordStore else {
                throw .unavailable(key: spend.key, reason: "RecordStores.iCloud cannot keep spends")
            }
            do {
                try await spendStore.keepSpend(SpendRecord(key: spend.key, balance: spend.balance, amount: spend.amount, date: spend.date))
            } catch {
                if error.isTransient { throw .unavailable(key: spend.key, reason: error.reason) }
                try refuse(spend)
                throw .refused(key: spend.key, reason: error.reason)
            }
            await configuration.spendProbe?(.spendSent, spend.key)
            configuration.faultInjection?(.spendSent)
            remaining = entitlements().balance(spend.balance)
        case .server:
            guard let transport = configuration.services.server else {
                throw .unavailable(key: spend.key, reason: "the configuration has no server transport")
            }
            let answer: ServerSpends.Answer
            do {
                answer = try await ServerSpends(transport: transport).spend(key: spend.key, balance: spend.balance, amount: spend.amount)
            } catch {
                if error.isTransient { throw .unavailable(key: spend.key, reason: error.reason) }
                try refuse(spend)
                throw .refused(key: spend.key, reason: error.reason)
            }
            switch answer {
            case .spent(let left):
                remaining = left
            case .insufficient(let message):
                try refuse(spend)
                throw .insufficientBalance(balance: spend.balance, available: nil, asked: spend.amount, detail: message)
            case .keyReused(let message):
                try refuse(spend)
                throw .keyReused(key: spend.key, first: "another spend on the server (\(message))", asked: spend.summary)
            }
            await configuration.spendProbe?(.spendSent, spend.key)
            configuration.faultInjection?(.spendSent)
        }
        do {
            try journal.settleSpend(key: spend.key, remaining: remaining)
        } catch {
            // The store or the server has it: the journal marks it at the next send of this key.
            throw .journal(error)
        }
        var applied = spend
        applied.state = .applied
        applied.remaining = remaining
        book.note(applied)
        if spend.keeping == .server {
            book.hear(server: remaining, of: spend.balance, granted: ledger, revoked: revoked)
        }
        publishIfChanged()
        return remaining
    }

    /// A pending spend refused for good: out of the journal and the balances.
    private func refuse(_ spend: JournalSpend) throws(SpendError) {
        do {
            try journal.dropPendingSpend(key: spend.key)
        } catch {
            throw .journal(error)
        }
        book.forget(key: spend.key)
        publishIfChanged()
    }

    /// Sends again every spend left pending (a crash before the answer, the
    /// network down): at start and on refresh. Failures leave them pending.
    func sendPendingSpends() async {
        for spend in book.local.values.sorted(by: { $0.date < $1.date }) where spend.state == .pending {
            _ = try? await send(spend)
        }
    }

    /// Reads every device's spends from the iCloud store; on a failure the last ones read stay.
    func readSynced(_ store: any SpendRecordStore) async {
        guard let spends = try? await store.spends() else { return }
        book.setSynced(spends)
    }
}
