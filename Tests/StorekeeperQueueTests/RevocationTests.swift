import Foundation
import GRDB
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// Refunds and revocations: the store takes a delivered purchase back, and
/// the queue removes what it delivered, once, for good (across restarts,
/// whatever path its steps take), while records kept elsewhere stop counting.
@Suite struct RevocationTests {
    typealias H = DeliveryHarness

    // MARK: What is removed

    @Test func aRefundedNonConsumableLosesItsFeaturesAndOwnership() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let car = try Self.product(Self.rocketCar, in: policy)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }

        let purchase = H.transaction("a", car, .purchased)
        let coinPurchase = H.transaction("c", coins, .purchased, quantity: 2)
        await world.store.send(purchase)
        await world.store.send(coinPurchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) && $0.contains(.removed(coinPurchase.info)) }
        let before = await queue.entitlements()
        #expect(before.owns(car.id))
        #expect(Set(car.unlocks).isSubset(of: before.features))
        try await H.eventually { await seen.values.last == before }

        let refund = Self.revocation(car, ["a"])
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }

        let after = await queue.entitlements()
        #expect(!after.owns(car.id), "ownership is gone")
        #expect(after.features.isDisjoint(with: car.unlocks), "what it unlocked is locked again")
        #expect(after.balances == before.balances, "another purchase keeps what it delivered")
        #expect(after == Entitlements(balances: before.balances))
        #expect(try await queue.contentLocations()[car.id] == nil, "its content location is gone")
        try await H.eventually { await seen.values.last == after }
        #expect(await world.log.revocations == [refund])
        // The store's receipt still lists the purchase here; read again, it no longer counts.
        #expect(await world.store.receiptEntries().contains { $0.transactionID == "a" })
        await queue.refreshEntitlements()
        #expect(await queue.entitlements() == after)

        await queue.stop()
        await reader.value
        #expect(await seen.values.last == after, "the stream ends on the entitlements without the refunded car")
    }

    @Test func aRefundedConsumableLowersItsBalanceByExactlyItsGrant() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let refunded = H.transaction("a", coins, .purchased, quantity: 2)
        let kept = H.transaction("b", coins, .purchased, quantity: 3)
        await world.store.send(refunded)
        await world.store.send(kept)
        try await H.settle(queue, world.log) { $0.contains(.removed(refunded.info)) && $0.contains(.removed(kept.info)) }
        let before = await queue.entitlements()

        let refund = Self.revocation(coins, ["a"])
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }

        let after = await queue.entitlements()
        for grant in coins.grants {
            #expect(after.balance(grant.balance) == before.balance(grant.balance) - grant.amount * 2, "exactly its grant")
            #expect(after.balance(grant.balance) == grant.amount * 3)
        }
        #expect(try await queue.grantLedger().map(\.transactionID) == Array(repeating: "b", count: coins.grants.count), "its ledger rows are gone")
        try await H.expectGrantedOnce(coins, quantity: 3, transaction: "b", queue)
        #expect(try await queue.appStateRecords().map(\.transactionID) == ["b"], "its app-state record is gone")
        await queue.stop()
    }

    @Test func aRevocationListingARestoreAndItsOriginalRemovesWhatBothDelivered() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        // Apple-hosted tracks: their restore downloads them again, so the
        // restore leaves a content location of its own.
        let tracks = try Self.product(Self.canyonTracks, in: policy)
        #expect(H.plan(of: tracks, .restored, in: policy).contains("download"))
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", tracks, .purchased)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        await queue.restoreCompletedTransactions()
        try await H.settle(queue, world.log) { $0.contains(.restoreFinished) }
        let restore = try #require(await world.log.events.compactMap { if case .updated(let transaction) = $0, transaction.originalID == "a" { transaction } else { nil } }.first)
        #expect(await world.log.removed == ["a", restore.id])
        #expect(try await queue.contentLocations()[tracks.id] != nil)
        #expect(await queue.entitlements().owns(tracks.id))

        let refund = Self.revocation(tracks, ["a", restore.id])
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }

        let after = await queue.entitlements()
        #expect(!after.owns(tracks.id))
        #expect(after.features.isDisjoint(with: tracks.unlocks))
        #expect(try await queue.contentLocations().isEmpty, "the restore's content location is gone with the original's ownership")
        await queue.refreshEntitlements()
        #expect(await queue.entitlements() == Entitlements(), "the receipt's entry for the original no longer counts")
        await queue.stop()
    }

    @Test func aRefundedSubscriptionPeriodTakesBackThatPeriodAndLeavesTheLaterOneItsFeatures() async throws {
        // A refund is of one transaction (StoreKit's `revocationDate` is a
        // transaction's: https://developer.apple.com/documentation/storekit/transaction/revocationdate),
        // and a renewal is a transaction of its own: refunding last month's
        // period must leave this month's access whole, whichever period
        // unlocked the features first.
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let pro = try Self.product(Self.proMonthly, in: policy)
        try #require(!pro.unlocks.isEmpty)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let lastMonth = Self.period("p1", of: pro, endingAt: 1_800_000_050)
        let thisMonth = Self.period("p2", of: pro, endingAt: 1_802_592_000)
        await world.store.send(lastMonth)
        await world.store.send(thisMonth)
        try await H.settle(queue, world.log) { $0.contains(.removed(lastMonth.info)) && $0.contains(.removed(thisMonth.info)) }
        let before = await queue.entitlements()
        #expect(before.owns(pro.id) && Set(pro.unlocks).isSubset(of: before.features))

        let earlierRefund = Self.revocation(pro, ["p1"])
        await world.store.send(.revoked(earlierRefund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(earlierRefund)) }
        #expect(await queue.entitlements() == before, "this month's period stands, with what it unlocks")

        let currentRefund = Self.revocation(pro, ["p2"])
        await world.store.send(.revoked(currentRefund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(currentRefund)) }
        let after = await queue.entitlements()
        #expect(!after.owns(pro.id) && after.features.isDisjoint(with: pro.unlocks), "the period paid for now is refunded")
        await queue.stop()
    }

    // MARK: Once, and for good

    @Test func aRepeatedRevocationChangesNothingAndIsToldOnce() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        await world.store.send(H.transaction("a", coins, .purchased, quantity: 2))
        await world.store.send(H.transaction("b", coins, .purchased, quantity: 1))
        try await H.settle(queue, world.log) { $0.filter { if case .removed = $0 { true } else { false } }.count == 2 }
        let seen = H.Collector<Entitlements>()
        let stream = await queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value) } }

        let refund = Self.revocation(coins, ["a"])
        await world.store.send(.revoked(refund))
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        let once = await queue.entitlements()
        let ledger = try await queue.grantLedger().map { "\($0.transactionID) \($0.balance) \($0.amount)" }
        try await H.eventually { await seen.values.last == once }

        // Again, and again as family sharing: the same transaction is revoked already.
        await world.store.send(.revoked(refund))
        await world.store.send(.revoked(StoreRevocation(productID: coins.id, transactionIDs: ["a"], reason: .familySharing, date: Self.date)))
        await queue.whenIdle()

        #expect(await queue.entitlements() == once, "nothing is taken twice")
        #expect(try await queue.grantLedger().map { "\($0.transactionID) \($0.balance) \($0.amount)" } == ledger)
        #expect(await world.log.revocations == [refund], "told once")
        await queue.stop()
        await reader.value
        let published = await seen.values
        #expect(published.count == 2, "published once: \(published)")
    }

    @Test func aRevocationSurvivesARestart() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let car = try Self.product(Self.rocketCar, in: policy)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", car, .purchased)
        // A purchase the store holds unfinished, which this device had not
        // heard of when the store revoked it.
        let unheard = H.transaction("u", coins, .purchased, quantity: 4)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
            await world.store.send(.revoked(Self.revocation(car, ["a"])))
            await world.store.send(.revoked(Self.revocation(coins, ["u"], reason: .familySharing)))
            try await H.settle(queue, world.log) { $0.filter { if case .revoked = $0 { true } else { false } }.count == 2 }
            await queue.stop()
        }
        await world.store.send(unheard)   // nobody listens: the store keeps it unfinished
        #expect(await world.store.unfinished.keys.sorted() == ["u"])

        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        try await queue.start(observers: [relaunch.log])
        // The store delivers what it holds unfinished at connect.
        try await H.settle(queue, relaunch.log) { $0.contains(.ignored(unheard, .revoked)) }
        #expect(await world.store.unfinished.isEmpty, "a revoked transaction the store held unfinished is finished")
        #expect(await world.store.finished == ["a", "u"])
        #expect(trace.steps(of: "u") == ["finish"], "no step of it ran: only the store's finish")

        // The refunded purchase, delivered again (the store did not hear of its finish, say), and an earlier state.
        let purchasing = H.transaction("a", car, .purchasing)
        await world.store.send(purchase)
        await world.store.send(purchasing)
        try await H.settle(queue, relaunch.log) { $0.contains(.ignored(purchase, .revoked)) && $0.contains(.ignored(purchasing, .revoked)) }
        #expect(await world.store.finishCalls == 3, "finished again: the store still held it")
        #expect(trace.steps(of: "a") == H.plan(of: car, .purchased, in: policy) + ["finish"], "no step ran again")

        let now = await queue.entitlements()
        #expect(now == Entitlements(), "the receipt lists the car, but it was refunded: \(now)")
        #expect(try await queue.grantLedger().isEmpty)
        #expect(await relaunch.log.revocations.isEmpty, "told once, in the launch that journalled it")
        await queue.stop()
    }

    // MARK: Records kept elsewhere

    @Test func recordsKeptElsewhereForARevokedTransactionNoLongerCount() async throws {
        let trace = H.Trace()
        let policy = try QueueFixtures.policy(try Self.catalogWithAdRemovalInUserDefaults())
        let noAds = try Self.product(Self.noAds, in: policy)
        #expect(noAds.persistence == .userDefaults)
        let car = try Self.product(Self.rocketCar, in: policy)
        #expect(car.persistence == .receipt)
        // A device buys both: the ad removal's record goes to its user
        // defaults, the car's is the store's receipt.
        let phone = try H.World(trace: trace)
        do {
            let queue = try phone.queue(policy)
            try await queue.start(observers: [phone.log])
            try await queue.add(Payment(productID: noAds.id))
            try await queue.add(Payment(productID: car.id))
            try await H.settle(queue, phone.log) { $0.filter { if case .removed = $0 { true } else { false } }.count == 2 }
            await queue.stop()
        }
        let records = try await phone.userDefaults.records()
        let noAdsID = try #require(records.first { $0.productID == noAds.id }?.transactionID)
        let carID = try #require(await phone.store.receiptEntries().first { $0.productID == car.id }?.transactionID)

        // A queue whose journal delivered nothing: only the records say the user owns them.
        let folder = try QueueFixtures.folder()
        let configuration = QueueFixtures.configuration(folder, recordStores: RecordStores(userDefaults: phone.userDefaults))
        let log = EventLog()
        do {
            let queue = try TransactionQueue(policy: policy, store: phone.store, configuration: configuration)
            try await queue.start(observers: [log])
            let before = await queue.entitlements()
            #expect(before.ownedProducts == [noAds.id, car.id])
            #expect(before.features == Set(noAds.unlocks + car.unlocks))

            await phone.store.send(.revoked(Self.revocation(noAds, [noAdsID])))
            await phone.store.send(.revoked(Self.revocation(car, [carID], reason: .familySharing)))
            try await H.settle(queue, log) { $0.filter { if case .revoked = $0 { true } else { false } }.count == 2 }
            #expect(await queue.entitlements() == Entitlements())
            await queue.refreshEntitlements()
            #expect(await queue.entitlements() == Entitlements(), "read again, they still do not count")
            await queue.stop()
        }
        #expect(try await phone.userDefaults.records() == records, "the records are not deleted")
        #expect(await phone.store.receiptEntries().contains { $0.transactionID == carID })

        let relaunch = try TransactionQueue(policy: policy, store: phone.store, configuration: configuration)
        try await relaunch.start()
        #expect(await relaunch.entitlements() == Entitlements(), "nor at the next launch")
        await relaunch.stop()
    }

    // MARK: A dispatch open when the revocation arrives

    @Test func aRevocationArrivingWhileItsTransactionsStepsWaitEndsWithNothingDelivered() async throws {
        let trace = H.Trace()
        let grantAttempts = H.Attempts()
        let unlockAttempts = H.Attempts()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace) { plugins in
            // The coins' grant fails once for a passing reason; a retry is a minute away.
            let grant = try #require(plugins.step(named: "grant"))
            try plugins.register(H.FlakyStep(base: grant, attempts: grantAttempts) { _, attempt in
                attempt == 1 ? .transient("the network is down") : nil
            })
            // The car's unlock fails once more, so that it is still waiting when the coins' step is retried.
            let unlock = try #require(plugins.step(named: "unlock"))
            try plugins.register(H.FlakyStep(base: unlock, attempts: unlockAttempts) { _, attempt in
                attempt <= 2 ? .transient("the network is down") : nil
            })
        }
        let coins = try H.consumable(in: policy)
        let car = try Self.product(Self.rocketCar, in: policy)
        let world = try H.World(trace: trace, retry: H.slowRetry)
        let coinPurchase = H.transaction("w", coins, .purchased, quantity: 2)
        let carPurchase = H.transaction("v", car, .purchased)
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.send(coinPurchase)
            await world.store.send(carPurchase)
            try await H.eventually { await queue.pending().map(\.status) == [.waiting, .waiting] }
            #expect(await queue.pending().map(\.step) == ["grant", "unlock"])

            await world.store.send(.revoked(Self.revocation(coins, ["w"])))
            await world.store.send(.revoked(Self.revocation(car, ["v"])))
            try await H.settle(queue, world.log) { $0.filter { if case .revoked = $0 { true } else { false } }.count == 2 }
            #expect(await queue.pending().count == 2, "still open: their plans go on to finish")

            // The coins' step runs again in this launch...
            await queue.retryNow()
            try await H.settle(queue, world.log) { events in
                events.contains(.removed(coinPurchase.info)) && events.filter { if case .stepFailed(let info, _, _, _) = $0 { info.id == "v" } else { false } }.count == 2
            }
            #expect(trace.steps(of: "w") == H.plan(of: coins, .purchased, in: policy), "its plan ran on to finish")
            #expect(await queue.entitlements() == Entitlements(), "its grant was dropped")
            #expect(try await queue.grantLedger().isEmpty)
            #expect(try await queue.appStateRecords().isEmpty)
            await queue.stop()
        }
        #expect(await world.store.unfinished.keys.sorted() == ["v"])

        // ...the car's at the next launch, replayed from the journal.
        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder, retry: H.slowRetry)
        let queue = try relaunch.queue(policy)
        try await queue.start(observers: [relaunch.log])
        try await H.settle(queue, relaunch.log) { $0.contains(.removed(carPurchase.info)) }
        #expect(trace.steps(of: "v") == H.plan(of: car, .purchased, in: policy))
        #expect(await world.store.unfinished.isEmpty)
        #expect(await queue.pending().isEmpty)
        #expect(await queue.entitlements() == Entitlements(), "its ownership and unlock were dropped")
        #expect(try await queue.contentLocations().isEmpty)
        await queue.stop()
    }

    // MARK: The journal

    @Test func aVersion1JournalOpensAndIsMigratedInPlace() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        let delivered: Entitlements
        do {
            let queue = try world.queue(policy)
            try await queue.start(observers: [world.log])
            await world.store.send(purchase)
            try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
            delivered = await queue.entitlements()
            await queue.stop()
        }
        // What a version-1 build wrote: the same tables, without revocations (nor version 3's spends).
        let path = world.configuration.journalPath
        do {
            let database = try DatabaseQueue(path: path)
            try await database.write { db in
                try db.execute(sql: "DROP TABLE revocations")
                try db.execute(sql: "DROP TABLE spends")
                try db.execute(sql: "ALTER TABLE dispatches DROP COLUMN signed_transaction")
                try db.execute(sql: "ALTER TABLE grants DROP COLUMN taken")
                try db.execute(sql: "DROP TABLE ownerships")
                try db.execute(sql: "UPDATE meta SET value = '1' WHERE key = 'version'")
            }
            try database.close()
        }
        #expect(try Self.journalState(path) == "version 1, without revocations")

        let relaunch = try H.World(trace: trace, store: world.store, server: world.server, folder: world.folder)
        let queue = try relaunch.queue(policy)
        #expect(try Self.journalState(path) == "version \(JournalSchema.version), with revocations", "migrated when opened")
        try await queue.start(observers: [relaunch.log])
        #expect(await queue.entitlements() == delivered, "nothing it held was lost")
        await world.store.send(purchase)
        try await H.settle(queue, relaunch.log) { $0.contains(.ignored(purchase, .duplicate)) }
        let refund = Self.revocation(coins, ["a"])
        await world.store.send(.revoked(refund))
        try await H.settle(queue, relaunch.log) { $0.contains(.revoked(refund)) }
        #expect(await queue.entitlements() == Entitlements())
        await queue.stop()

        // Opened again: already the current version, and the revocation is there.
        let again = try TransactionQueue(policy: policy, store: ScriptedStore(), configuration: world.configuration)
        try await again.start()
        #expect(await again.entitlements() == Entitlements())
        await again.stop()
        #expect(try Self.journalState(path) == "version \(JournalSchema.version), with revocations")
    }

    @Test func aRevocationTheJournalCannotWriteIsJournalledWhenItRunsAgain() async throws {
        let trace = H.Trace()
        let policy = try H.tracedPolicy("rocket-racer", trace: trace)
        let coins = try H.consumable(in: policy)
        let world = try H.World(trace: trace)
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])
        let purchase = H.transaction("a", coins, .purchased, quantity: 2)
        await world.store.send(purchase)
        try await H.settle(queue, world.log) { $0.contains(.removed(purchase.info)) }
        let delivered = await queue.entitlements()

        // Every write of a revocation fails (as on a full disk) until the trigger goes.
        let database = try DatabaseQueue(path: world.configuration.journalPath)
        defer { try? database.close() }
        try await database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON revocations BEGIN SELECT RAISE(FAIL, 'the disk is full'); END")
        }
        let refund = Self.revocation(coins, ["a"])
        await world.store.send(.revoked(refund))
        try await H.eventually { await world.log.events.contains { if case .journalFailed = $0 { true } else { false } } }
        #expect(await queue.entitlements() == delivered, "nothing was removed: nothing committed")
        #expect(await world.log.revocations.isEmpty, "not told before the journal has it")
        // Meanwhile the transaction delivers nothing: the store's copy is ignored and finished.
        await world.store.send(purchase)
        try await H.eventually { await world.log.events.contains(.ignored(purchase, .revoked)) }

        try await database.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        try await H.settle(queue, world.log) { $0.contains(.revoked(refund)) }
        #expect(await queue.entitlements() == Entitlements())
        #expect(try await queue.grantLedger().isEmpty)
        await queue.whenIdle()
        #expect(await world.log.revocations == [refund], "told once")
        await queue.stop()
    }

    // MARK: Helpers

    static let date = Date(timeIntervalSince1970: 1_800_000_050)
    static let rocketCar = "com.example.rocketracer.vehicle.rocketcar"
    static let canyonTracks = "com.example.rocketracer.tracks.canyon"
    static let noAds = "com.example.rocketracer.noads"
    static let proMonthly = "com.example.rocketracer.pro.monthly"

    static func product(_ id: String, in policy: CompiledPolicy) throws -> ProductPolicy {
        try #require(policy.product(id: id).map { policy.product($0) })
    }

    /// A subscription period: its own transaction, ending at `end` (seconds since 1970).
    static func period(_ id: String, of product: ProductPolicy, endingAt end: TimeInterval) -> StoreTransaction {
        var transaction = H.transaction(id, product, .purchased)
        transaction.expirationDate = Date(timeIntervalSince1970: end)
        return transaction
    }

    static func revocation(_ product: ProductPolicy, _ transactionIDs: [String],
                           reason: StoreRevocation.Reason = .refund) -> StoreRevocation {
        StoreRevocation(productID: product.id, transactionIDs: transactionIDs, reason: reason, date: date)
    }

    /// Rocket Racer, with its ad removal kept in user defaults: no example
    /// catalog keeps a record there.
    static func catalogWithAdRemovalInUserDefaults() throws -> String {
        let text = try String(contentsOfFile: "\(QueueFixtures.packageRoot)/Catalogs/rocket-racer/catalog.yaml", encoding: .utf8)
        let delivery = "    delivery: {model: built-in, unlocks: [ad-free]}\n"
        try #require(text.components(separatedBy: delivery).count == 2, "the ad removal's delivery line is where it was")
        return text.replacingOccurrences(of: delivery, with: delivery + "    persistence: user-defaults\n")
    }

    /// The journal's version in `meta`, and whether it has the revocations table.
    static func journalState(_ path: String) throws -> String {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        return try database.read { db in
            let version = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") ?? "none"
            return "version \(version), \(try db.tableExists("revocations") ? "with" : "without") revocations"
        }
    }
}

extension EventLog {
    /// The revocations observers were told of, in order.
    var revocations: [StoreRevocation] {
        events.compactMap { if case .revoked(let revocation) = $0 { revocation } else { nil } }
    }
}
