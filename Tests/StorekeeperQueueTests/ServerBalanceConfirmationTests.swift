import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// A balance kept on the server, as the user's devices show it (issue 25,
/// finding 10): the server's word whenever the server answered, its
/// subscriptions' fractional `expirationDate`s and its `owed` included
/// (docs/server-contract.md, GET /v1/entitlements); marked unconfirmed,
/// saying what failed, whenever it could not be read.
@Suite struct ServerBalanceConfirmationTests {
    typealias B = BalanceFixtures

    /// A subscription the server lists, its period ending at a fraction of
    /// a second, as `storekeeper-server` writes dates.
    static func subscribe(_ account: B.Account) async throws {
        try await ServerRecordStore(transport: account.server).keep(StoredRecord(
            strategy: .server, productID: "com.example.monthly", value: .flag, transactionID: "s1",
            purchaseDate: Date(timeIntervalSince1970: 1_799_000_000.5), expirationDate: Date(timeIntervalSince1970: 4_000_000_000.25)))
    }

    static func answer(_ body: String) -> ServerResponse {
        ServerResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    @Test func withASubscriptionEveryDeviceShowsTheServersBalance() async throws {
        let account = try B.Account()
        try await Self.subscribe(account)
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1", quantity: 2)
        let pad = try B.Device("pad", of: account)
        try await pad.start()
        #expect(await pad.balance("credits") == 100)

        #expect(try await phone.queue.spend(20, of: "credits", key: "phone-1") == 80)
        #expect(try await pad.queue.spend(5, of: "credits", key: "pad-1") == 75)
        #expect(account.server.balance("credits", of: SimulatedServer.defaultUser) == 75)
        await phone.queue.refreshEntitlements()
        await pad.queue.refreshEntitlements()
        let onPhone = await phone.queue.entitlements()
        #expect(onPhone.balance("credits") == 75, "the server's word, the pad's spend included")
        #expect(onPhone.unconfirmed.isEmpty, "\(onPhone.unconfirmed)")
        #expect(await pad.balance("credits") == 75)
        #expect(await pad.queue.entitlements().unconfirmed.isEmpty)
        await phone.queue.stop()
        await pad.queue.stop()
    }

    @Test func aServerThatCannotBeReadLeavesItsBalancesUnconfirmedSayingWhatFailed() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1")
        #expect(await phone.queue.entitlements().isConfirmed("credits"), "the server had nothing, nor had this device")
        // Another device spends 10.
        _ = try await ServerSpends(transport: account.server).spend(key: "elsewhere", balance: "credits", amount: 10)

        account.server.failNext(1, status: 503)
        await phone.queue.refreshEntitlements()
        let offline = await phone.queue.entitlements()
        #expect(offline.balance("credits") == 50, "this device's own reckoning")
        let reason = try #require(offline.unconfirmed["credits"], "shown as unconfirmed")
        #expect(reason.contains("GET /v1/entitlements") && reason.contains("503"), "\(reason)")
        #expect(offline.isConfirmed("coins") && offline.isConfirmed("gems"), "balances not kept on the server need no confirmation")

        await phone.queue.refreshEntitlements()
        let online = await phone.queue.entitlements()
        #expect(online.balance("credits") == 40)
        #expect(online.unconfirmed.isEmpty, "\(online.unconfirmed)")
        await phone.queue.stop()
    }

    @Test func anAnswerThatIsNotTheDocumentedJSONIsNamedAndTheLastWordStays() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1")
        #expect(try await phone.queue.spend(15, of: "credits", key: "k") == 35)
        account.server.answerNext(with: Self.answer(#"{"features": [], "balances": {"credits": -3}, "subscriptions": [], "products": []}"#))
        await phone.queue.refreshEntitlements()
        let now = await phone.queue.entitlements()
        #expect(now.balance("credits") == 35, "the server's last word, from the spend's answer")
        let reason = try #require(now.unconfirmed["credits"])
        #expect(reason.contains("not the documented JSON") && reason.contains("balances.credits: -3"), "\(reason)")
        await phone.queue.stop()
    }

    @Test func whatTheServerSaysIsOwedIsOverdrawnAndLaterPurchasesPayItFirst() async throws {
        let account = try B.Account()
        let phone = try B.Device("phone", of: account)
        try await phone.start()
        try await phone.buy(B.credits, id: "p1")
        // A refund took back coins already spent: the server says 20 are owed.
        account.server.answerNext(with: Self.answer(
            #"{"features": [], "balances": {"credits": 0}, "owed": {"credits": 20}, "subscriptions": [], "products": []}"#))
        await phone.queue.refreshEntitlements()
        let owing = await phone.queue.entitlements()
        #expect(owing.balance("credits") == 0)
        #expect(owing.overdraft("credits") == 20, "the server's owed, surfaced")
        #expect(owing.isConfirmed("credits"))
        let error = try #require(await B.spendError { () throws(SpendError) in try await phone.queue.spend(1, of: "credits", key: "k") })
        #expect(error == .insufficientBalance(balance: "credits", available: 0, asked: 1, detail: nil))
        try await phone.buy(B.credits, id: "p2")
        #expect(await phone.balance("credits") == 30, "50 bought, 20 of it paying what was owed")
        #expect(await phone.queue.entitlements().overdraft("credits") == 0)
        await phone.queue.stop()
    }

    @Test func withoutAServerTransportTheServersBalancesAreUnconfirmed() async throws {
        let account = try B.Account()
        let folder = account.folder.appendingPathComponent("bare")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let queue = try TransactionQueue(policy: account.policy, store: ScriptedStore(), configuration: QueueFixtures.configuration(folder))
        try await queue.start()
        let now = await queue.entitlements()
        let reason = try #require(now.unconfirmed["credits"])
        #expect(reason.contains("no server transport"), "\(reason)")
        #expect(Set(now.unconfirmed.keys) == ["credits"], "only the balance kept on the server")
        await queue.stop()
    }
}
