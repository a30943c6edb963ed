import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// What the user may use: the journal's ledger, records kept elsewhere, grace periods and the server's
/// balances, combined and published.
extension TransactionQueue {
    /// What the user may use now. Before ``start(observers:)`` has loaded
    /// the journal it knows nothing yet, and is empty.
    public func entitlements() -> Entitlements {
        ledger.entitlements(policy: policy, elsewhere: elsewhere, now: configuration.now(),
                            balances: book.balances(granted: ledger, revoked: revoked))
    }

    /// The entitlements now, then again each time they change.
    ///
    /// A stream made before ``start(observers:)`` yields nothing until start
    /// has loaded the journal; its first value is then what the journal and
    /// the records kept elsewhere say, never an empty placeholder. Each
    /// stream ends at ``stop()``.
    public func entitlementUpdates() -> AsyncStream<Entitlements> {
        // Not AsyncStream.makeStream, which needs iOS 17: the build closure runs in init.
        var made: AsyncStream<Entitlements>.Continuation?
        let stream = AsyncStream<Entitlements>(bufferingPolicy: .bufferingNewest(64)) { made = $0 }
        guard let continuation = made else { return stream }
        let id = UUID()
        subscribers[id] = continuation
        if published != nil { continuation.yield(entitlements()) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Reads again the records kept elsewhere (another device's `icloud`
    /// records, the server's, the store's receipt) and publishes the
    /// entitlements if they changed.
    public func refreshEntitlements() async {
        await sendPendingSpends()
        await refreshElsewhere()
        publishIfChanged()
    }

    /// The grants kept, by transaction: the ledger the balances sum.
    public func grantLedger() throws(JournalError) -> [(transactionID: String, balance: String, amount: Int)] {
        try journal.grants()
    }

    /// The `app-state` records kept in the journal.
    package func appStateRecords() throws(JournalError) -> [StoredRecord] { try journal.appStateRecords() }

    /// Where each product's content was put.
    public func contentLocations() throws(JournalError) -> [String: ContentLocation] { try journal.contentLocations() }

    /// Custom effects plugins returned, by transaction.
    package func customEffects() throws(JournalError) -> [(transactionID: String, step: String, detail: String)] {
        try journal.customEffects()
    }

    func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    func refreshElsewhere() async {
        var found: [(productID: String, ownership: EntitlementLedger.Ownership)] = []
        var grants: [String: [String: Int]] = [:]
        // The server's balances before its records: a purchase recorded
        // between the two reads then counts as not yet spent, never twice.
        let serverRead = await readServerBalances()
        func note(_ productID: String, strategy: PersistenceStrategy, transactionID: String, purchaseDate: Date, expirationDate: Date?,
                  units: Int = 1) {
            guard let handle = policy.product(id: productID) else { return }
            let product = policy.product(handle)
            guard product.persistence == strategy else { return }
            if product.type == .consumable {
                // A consumable is never owned; what it granted counts once per transaction (BalanceBook).
                for grant in product.grants { grants[transactionID, default: [:]][grant.balance, default: 0] += grant.amount &* units }
                return
            }
            let end = expirationDate ?? SubscriptionTerm.expiration(of: product, bought: purchaseDate, storeExpiration: nil)
            found.append((productID, EntitlementLedger.Ownership(transactionID: transactionID, purchaseDate: purchaseDate, expirationDate: end)))
        }
        for strategy in [PersistenceStrategy.userDefaults, .icloud, .server] {
            guard let recordStore = configuration.recordStores.store(for: strategy) else { continue }
            // A store that cannot be read now (offline) still holds what it
            // held: its last records stay, so that what they evidence (a
            // product owned, grants a server balance is reckoned from) does
            // not vanish for as long as the network is down.
            let records: [StoredRecord]
            if let read = try? await recordStore.records() {
                records = read
                lastRecords[strategy] = read
            } else {
                records = lastRecords[strategy] ?? []
            }
            for record in records {
                note(record.productID, strategy: strategy, transactionID: record.transactionID,
                     purchaseDate: record.purchaseDate, expirationDate: record.expirationDate, units: record.units)
            }
        }
        book.elsewhereGrants = grants
        switch serverRead {
        case .none:
            break
        case .answered(let balances, let owed, let unlisted):
            for (balance, remaining) in balances {
                book.hear(server: remaining, owed: owed[balance] ?? 0, of: balance, granted: ledger, revoked: revoked)
            }
            for balance in unlisted {
                book.unlisted(balance, reason: "the server's answer to GET /v1/entitlements does not list the balance '\(balance)'",
                              granted: ledger, revoked: revoked)
            }
        case .failed(let reason):
            book.doubt(reason)
        }
        if let spendStore = configuration.recordStores.iCloud as? any SpendRecordStore, book.keeping.values.contains(.icloud) {
            await readSynced(spendStore)
        }

        for entry in await store.receiptEntries() {
            note(entry.productID, strategy: .receipt, transactionID: entry.transactionID,
                 purchaseDate: entry.purchaseDate, expirationDate: entry.expirationDate)
            // A billing grace period is the store's, whatever keeps the
            // record: StoreKit signs no new transaction for it, so the later
            // end the store gives a subscription transaction owned here is
            // counted, not only for `receipt` products.
            if let end = entry.expirationDate, let owned = ledger.owned[entry.productID], owned.transactionID == entry.transactionID,
               let ownedEnd = owned.expirationDate, ownedEnd < end, let handle = policy.product(id: entry.productID),
               policy.product(handle).type == .autoRenewableSubscription, policy.product(handle).persistence != .receipt {
                found.append((entry.productID, EntitlementLedger.Ownership(transactionID: entry.transactionID, purchaseDate: owned.purchaseDate,
                                                                           expirationDate: end)))
            }
        }
        recordsElsewhere = found
        // The store's entitlements just read give each grace period as it is now.
        gracePeriods.removeAll()
        mergeElsewhere()
    }

    /// What records kept elsewhere say the user owns, by product: the
    /// longest-lasting purchase of each, revoked ones left out. A revoked
    /// purchase's record is not deleted (another device, the server or the
    /// store keeps it), but it no longer counts here.
    func mergeElsewhere() {
        // A subscription period a later one superseded (its refund reversed
        // after the user subscribed again) counts no more from a record than
        // from the journal: only the latest period is the subscription's.
        // A journal that cannot be read now keeps the last answer.
        if let superseded = try? journal.supersededPeriods() { supersededPeriods = superseded }
        var found: [String: EntitlementLedger.Ownership] = [:]
        for (productID, ownership) in recordsElsewhere + gracePeriods.map({ ($0.key, $0.value) })
        where !revoked.contains(ownership.transactionID) && !supersededPeriods.contains(ownership.transactionID) {
            found[productID] = found[productID].map { $0.merged(with: ownership) } ?? ownership
        }
        elsewhere = found
    }

    /// What reading the server's balances gave.
    enum ServerBalancesRead {
        /// No balance is kept on the server: nothing was asked.
        case none
        /// What remains and what is owed, of the balances the answer lists;
        /// those it leaves out.
        case answered(balances: [String: Int], owed: [String: Int], unlisted: [String])
        /// The server could not be read: what failed.
        case failed(String)
    }

    /// Reads what the server says of the balances it keeps
    /// (`GET /v1/entitlements`). A failure is kept, with what failed, so
    /// that the entitlements show those balances as unconfirmed; the last
    /// word heard stays what they are reckoned from.
    func readServerBalances() async -> ServerBalancesRead {
        let kept = book.keeping.filter { $0.value == .server }.map(\.key)
        guard !kept.isEmpty else { return .none }
        guard let transport = configuration.services.server else {
            return .failed("no server transport: the configuration's EngineServices has no server, so the balances it keeps cannot be read")
        }
        let answer: ServerEntitlements
        do {
            answer = try await ServerAccount(transport: transport).entitlements()
        } catch {
            return .failed(error.reason)
        }
        // A balance the server's answer leaves out is one it does not keep
        // (yet): unknown, not zero, so nothing is taken for spent.
        var balances: [String: Int] = [:]
        var unlisted: [String] = []
        for name in kept {
            // A balance listed only as owed holds nothing.
            if let remaining = answer.balances[name] ?? answer.owed[name].map({ _ in 0 }) {
                balances[name] = remaining
            } else {
                unlisted.append(name)
            }
        }
        return .answered(balances: balances, owed: answer.owed, unlisted: unlisted)
    }

    func publishIfChanged() {
        // Before start has loaded the journal there is nothing to compare
        // with, and what this queue knows is not yet what the user owns.
        guard let last = published else { return }
        let now = entitlements()
        scheduleExpiryCheck()
        guard now != last else { return }
        publish(now)
    }

    /// Yields `value` to every subscriber and remembers it as published.
    func publish(_ value: Entitlements) {
        published = value
        for subscriber in subscribers.values { subscriber.yield(value) }
    }

    /// Entitlements change when a subscription ends, with nothing else
    /// happening: a timer publishes them again at the next end.
    func scheduleExpiryCheck() {
        let now = configuration.now()
        let ends = ledger.owned.values.compactMap(\.expirationDate) + elsewhere.values.compactMap(\.expirationDate)
        guard let next = ends.filter({ $0 > now }).min(), next != expiryCheckAt else { return }
        expiryCheckAt = next
        let delay = next.timeIntervalSince(now) + 0.001
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            await self?.expiryCheckDue(next)
        }
    }

    func expiryCheckDue(_ date: Date) {
        guard expiryCheckAt == date else { return }
        expiryCheckAt = nil
        publishIfChanged()
    }
}
