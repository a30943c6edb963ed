import Foundation
import GRDB
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// `TransactionQueue.spend`: durable, idempotent by key, never below zero,
/// shown in the entitlements and their stream, and sent where the balance
/// is kept (the journal, iCloud, the server).
@Suite struct SpendTests {
    typealias B = BalanceFixtures

    // MARK: Kept on the device

    @Test func aSpendLowersTheBalanceAndTheStreamShowsIt() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1", quantity: 2)
        let seen = B.H.Collector<Int>()
        let stream = await phone.queue.entitlementUpdates()
        let reader = Task { for await value in stream { await seen.append(value.balance("coins")) } }
        try await B.H.eventually { await seen.values == [200] }
        #expect(try await phone.queue.spend(30, of: "coins", key: "sword") == 170)
        #expect(await phone.balance("coins") == 170)
        try await B.H.eventually { await seen.values == [200, 170] }
        await phone.queue.stop()
        await reader.value
    }

    @Test func theSameKeyIsAppliedOnceAndGetsTheFirstAnswer() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1")
        #expect(try await phone.queue.spend(30, of: "coins", key: "sword") == 70)
        #expect(try await phone.queue.spend(30, of: "coins", key: "sword") == 70)
        #expect(await phone.balance("coins") == 70)
        // Another spend, then the first key again: still the first answer.
        #expect(try await phone.queue.spend(20, of: "coins", key: "shield") == 50)
        #expect(try await phone.queue.spend(30, of: "coins", key: "sword") == 70)
        #expect(await phone.balance("coins") == 50)
        await phone.queue.stop()

        // After a relaunch (a retry after a crash, say), the journal still knows the key.
        let again = try B.Device("phone", of: account, store: phone.store)
        try await again.start()
        #expect(await again.balance("coins") == 50)
        #expect(try await again.queue.spend(30, of: "coins", key: "sword") == 70)
        #expect(await again.balance("coins") == 50)
        await again.queue.stop()
    }

    @Test func aKeyReusedForAnotherSpendIsRefusedNamingIt() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1")
        _ = try await phone.queue.spend(30, of: "coins", key: "sword")
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(40, of: "coins", key: "sword") })
        #expect(error == .keyReused(key: "sword", first: "30 coins", asked: "40 coins"))
        #expect(error.description.contains("'sword'") && error.description.contains("30 coins") && error.description.contains("40 coins"))
        #expect(await phone.balance("coins") == 70)
        await phone.queue.stop()
    }

    @Test func aSpendNeverTakesABalanceBelowZero() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1")
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(101, of: "coins", key: "castle") })
        #expect(error == .insufficientBalance(balance: "coins", available: 100, asked: 101, detail: nil))
        #expect(error.description == "cannot spend 101 coins: 100 available; nothing was spent")
        #expect(try await phone.queue.spend(100, of: "coins", key: "castle") == 0, "the key was not used by the refusal")
        #expect(await phone.balance("coins") == 0)
        #expect(await phone.queue.entitlements().overdrawn.isEmpty)
        await phone.queue.stop()
    }

    static let badSpends: [(amount: Int, balance: String, key: String, error: SpendError)] = [
        (0, "coins", "k", .invalidAmount(0)),
        (-5, "coins", "k", .invalidAmount(-5)),
        (1, "coin", "k", .unknownBalance("coin", suggestion: "coins")),
        (1, "coins", "", .invalidKey("")),
        (1, "coins", "a\nb", .invalidKey("a\nb")),
        (1, "coins", String(repeating: "k", count: 257), .invalidKey(String(repeating: "k", count: 257))),
    ]

    @Test(arguments: badSpends.indices)
    func aSpendThatCannotBeMadeSaysWhy(_ index: Int) async throws {
        let bad = Self.badSpends[index]
        let account = try B.Account(name: "bad\(index)")
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1")
        let error = await B.spendError { () throws(SpendError) in try await phone.queue.spend(bad.amount, of: bad.balance, key: bad.key) }
        #expect(error == bad.error)
        #expect(await phone.balance("coins") == 100)
        await phone.queue.stop()
    }

    @Test func aSpendBeforeStartIsRefused() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        let error = await B.spendError { () throws(SpendError) in try await phone.queue.spend(1, of: "coins", key: "k") }
        #expect(error == .notStarted)
    }

    @Test func aVersionTwoJournalIsUpgradedWithItsBalances() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.coins, id: "t1")
        await phone.queue.stop()
        let path = account.folder.appendingPathComponent("phone/journal.sqlite").path
        do {
            // What a version-2 build wrote: no spends table.
            let database = try DatabaseQueue(path: path)
            try await database.write { db in
                try db.execute(sql: "DROP TABLE spends")
                try db.execute(sql: "ALTER TABLE dispatches DROP COLUMN signed_transaction")
                try db.execute(sql: "ALTER TABLE grants DROP COLUMN taken")
                try db.execute(sql: "DROP TABLE ownerships")
                try db.execute(sql: "ALTER TABLE revocations DROP COLUMN share")
                try db.execute(sql: "UPDATE meta SET value = '2' WHERE key = 'version'")
            }
            try database.close()
        }
        let again = try B.Device("phone", of: account, store: phone.store)
        try await again.start()
        #expect(await again.balance("coins") == 100)
        #expect(try await again.queue.spend(40, of: "coins", key: "k") == 60)
        await again.queue.stop()
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        let version = try await database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") }
        #expect(version == String(JournalSchema.version))
        #expect(try await database.read { db in try Int.fetchOne(db, sql: "SELECT amount FROM spends WHERE key = 'k'") } == 40)
    }

    // MARK: Kept in iCloud

    @Test func aSpendOnOneDeviceIsSeenOnTheOther() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.gems, id: "p1", quantity: 5)
        #expect(try await phone.queue.spend(20, of: "gems", key: "hat") == 30)
        await phone.queue.stop()

        let pad = try B.Device("pad", of: account)
        try await pad.start()
        #expect(await pad.balance("gems") == 30)
        #expect(try await pad.queue.spend(25, of: "gems", key: "cape") == 5)
        // The pad checks what the phone spent since: 10 is more than is left.
        let error = await B.spendError { () throws(SpendError) in try await pad.queue.spend(10, of: "gems", key: "boots") }
        #expect(error == .insufficientBalance(balance: "gems", available: 5, asked: 10, detail: nil))
        await pad.queue.stop()

        let back = try B.Device("phone", of: account, store: phone.store)
        try await back.start()
        #expect(await back.balance("gems") == 5)
        // The same key on another device is the same spend.
        #expect(try await back.queue.spend(25, of: "gems", key: "cape") == 5, "the pad's answer is not known here: what is left now")
        #expect(await back.balance("gems") == 5)
        await back.queue.stop()
    }

    @Test func twoDevicesThatSpendTheSameGemsBeforeTheyMeetAreOverdrawn() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account, iCloud: account.iCloud("phone-view"))
        try await phone.start()
        try await phone.buy(B.gems, id: "p1", quantity: 10)
        // The pad has synced the purchase, but nothing after it.
        try FileManager.default.copyItem(atPath: account.iCloud("phone-view"), toPath: account.iCloud("pad-view"))
        let pad = try B.Device("pad", of: account, iCloud: account.iCloud("pad-view"))
        try await pad.start()
        #expect(await pad.balance("gems") == 100)
        #expect(try await phone.queue.spend(80, of: "gems", key: "castle") == 20)
        #expect(try await pad.queue.spend(70, of: "gems", key: "ship") == 30)

        // They meet: each device's file reaches the other's view.
        func sync(_ device: String, from: String, to: String) throws {
            let target = account.iCloud(to) + "/\(device).records"
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.copyItem(atPath: account.iCloud(from) + "/\(device).records", toPath: target)
        }
        try sync("phone", from: "phone-view", to: "pad-view")
        try sync("pad", from: "pad-view", to: "phone-view")
        for device in [phone, pad] {
            await device.queue.refreshEntitlements()
            let entitlements = await device.queue.entitlements()
            // Both spends stand: 150 spent of 100.
            #expect(entitlements.balance("gems") == 0, "\(device.name)")
            #expect(entitlements.overdrawn == ["gems": 50], "\(device.name)")
            let error = await B.spendError { () throws(SpendError) in try await device.queue.spend(1, of: "gems", key: "more-\(device.name)") }
            #expect(error == .insufficientBalance(balance: "gems", available: 0, asked: 1, detail: nil))
        }
        // A new purchase pays the overdraft first.
        try await phone.buy(B.gems, id: "p2", quantity: 6)
        #expect(await phone.queue.entitlements().balances == ["gems": 10])
        #expect(await phone.queue.entitlements().overdrawn == [:])
        await phone.queue.stop()
        await pad.queue.stop()
    }

    @Test func anICloudStoreThatCannotKeepSpendsSaysSo() async throws {
        let account = try B.Account()
        let folder = account.folder.appendingPathComponent("phone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = QueueFixtures.configuration(folder, recordStores: RecordStores(iCloud: FileKeyValueStore(path: account.iCloud() + ".json")))
        let store = ScriptedStore()
        let queue = try TransactionQueue(policy: account.policy, store: store, configuration: configuration)
        let log = EventLog()
        try await queue.start(observers: [log])
        let info = TransactionInfo(id: "p1", productID: B.gems, state: .purchased, receipt: [1])
        await store.send(StoreTransaction(info, purchaseDate: Date(timeIntervalSince1970: 1_800_000_000)))
        try await B.H.settle(queue, log) { $0.contains(.removed(info)) }
        let error = try #require(await B.spendError { () throws(SpendError) in try await queue.spend(1, of: "gems", key: "k") })
        guard case .notConfigured(balance: "gems", let missing) = error else {
            Issue.record("expected notConfigured, got \(error)")
            return
        }
        #expect(missing.contains("SpendRecordStore"))
        #expect(await queue.entitlements().balance("gems") == 10)
        await queue.stop()
    }

    // MARK: Kept on the server

    @Test func aServerSpendIsSentAndTheServersRemainingIsShownOnEveryDevice() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1", quantity: 2)
        #expect(try await phone.queue.spend(30, of: "credits", key: "rewrite-1") == 70)
        #expect(account.server.spends.count == 1)
        #expect(await phone.balance("credits") == 70)
        await phone.queue.stop()

        let pad = try B.Device("pad", of: account)
        try await pad.start()
        #expect(await pad.balance("credits") == 70)
        let error = try #require(await B.spendError { () throws(SpendError) in try await pad.queue.spend(71, of: "credits", key: "rewrite-2") })
        #expect(error == .insufficientBalance(balance: "credits", available: 70, asked: 71, detail: nil))
        await pad.queue.stop()
    }

    @Test func theServerRefusingASpendSpendsNothing() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1")
        // Another device spent 40 on the server since this one last asked.
        let other = try B.Device("pad", of: account)
        try await other.start()
        _ = try await other.queue.spend(40, of: "credits", key: "elsewhere")
        await other.queue.stop()
        #expect(await phone.balance("credits") == 50)
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(20, of: "credits", key: "here") })
        guard case .insufficientBalance(balance: "credits", available: nil, asked: 20, let detail?) = error else {
            Issue.record("expected the server's refusal, got \(error)")
            return
        }
        #expect(detail.contains("10 available, 20 asked"), "the server's own words: \(detail)")
        #expect(await phone.balance("credits") == 50, "refused: nothing held back")
        await phone.queue.refreshEntitlements()
        #expect(await phone.balance("credits") == 10)
        #expect(try await phone.queue.spend(10, of: "credits", key: "here") == 0, "the refused key can be used again")
        await phone.queue.stop()
    }

    @Test func aServerSpendWhoseAnswerWasLostIsSentAgainWithItsKeyAndAppliedOnce() async throws {
        let account = try B.Account()
        let losing = AnswerLosingTransport(account.server)
        let phone = try B.Device("phone", of: account, transport: losing)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1", quantity: 2)
        // The server takes the spend; its answer never arrives (the app dies, the network drops).
        losing.loseNextSpendAnswer()
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(60, of: "credits", key: "essay") })
        guard case .unavailable(key: "essay", _) = error else {
            Issue.record("expected unavailable, got \(error)")
            return
        }
        #expect(account.server.spends.count == 1, "the server has it")
        #expect(await phone.balance("credits") == 40, "pending: held back")
        await phone.queue.stop()

        // The next launch sends it again, with the same key: the server answers the same, nothing twice.
        let again = try B.Device("phone", of: account, store: phone.store, transport: losing)
        try await again.start()
        #expect(await again.balance("credits") == 40)
        #expect(try await again.queue.spend(60, of: "credits", key: "essay") == 40)
        #expect(account.server.spends.count == 1)
        #expect(losing.spendRequests == 2, "sent once, then once more at the start; the app's retry got the journal's answer")
        await again.queue.stop()
    }

    @Test func aServerSpendWhileOfflineIsPendingThenAppliedOnceWithTheSameKey() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1")
        account.server.setOffline(true)
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(20, of: "credits", key: "k") })
        #expect(error.description.contains("kept pending"), "\(error)")
        #expect(await phone.balance("credits") == 30)
        account.server.setOffline(false)
        #expect(try await phone.queue.spend(20, of: "credits", key: "k") == 30)
        #expect(try await phone.queue.spend(20, of: "credits", key: "k") == 30)
        #expect(account.server.spends.count == 1)
        #expect(await phone.balance("credits") == 30)
        await phone.queue.stop()
    }
}

/// A transport in front of the simulated server that can lose the answer
/// to a spend after the server took it, as a crash or a dropped connection does.
final class AnswerLosingTransport: ServerTransport, Sendable {
    private let server: SimulatedServer
    private let state = Locked((lose: false, spends: 0))

    init(_ server: SimulatedServer) { self.server = server }

    func loseNextSpendAnswer() { state.withLock { $0.lose = true } }
    var spendRequests: Int { state.withLock { $0.spends } }

    func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        let isSpend = request.path.hasPrefix("/v1/spends/")
        let response = try await server.send(request)
        let lose = state.withLock { state -> Bool in
            guard isSpend else { return false }
            state.spends += 1
            defer { state.lose = false }
            return state.lose
        }
        if lose { throw .transient("the connection was reset before the answer arrived") }
        return response
    }

    func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        try await server.download(path: path, storage: storage)
    }
}
