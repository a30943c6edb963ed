import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// A transaction counts in its newest signed version, whichever route brought it and in whatever
/// order: a refund told before anyone held the transaction is remembered, ownership follows the
/// original transaction, and a sandbox purchase never counts toward a production balance.
@Suite struct TransactionVersionTests {
    static let coins = LedgerEffect.grant(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 10))

    @Test(arguments: TestBackend.available)
    func aRefundToldBeforeAnyoneHeldTheTransactionIsRemembered(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            var refunded = Samples.transaction("1000", user: "", signedDate: 200, revocationDate: 150)
            refunded.revocationPercentage = 100_000
            _ = try await storage.receive(Samples.notification("refund"))
            #expect(try await storage.process(notificationUUID: "refund", effects: [.toldTransaction(refunded)], at: 1))
            #expect(try await storage.lookUpTransaction("1000") == nil)
            // The app posts the older, unrevoked copy: the refunded version is kept, and grants nothing.
            let bought = Samples.transaction("1000", user: "alice", signedDate: 100)
            let account = UserAccount(user: "alice", appAccountToken: "alice-token")
            #expect(try await storage.keep([.transaction(bought), Self.coins], for: account) == .inserted)
            #expect(try await storage.lookUpTransaction("1000")?.revocationDate == 150)
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            // The refund reversed later gives the grant back: it was recorded, then taken back.
            let reversed = Samples.transaction("1000", user: "alice", signedDate: 300)
            #expect(try await storage.keep([.transaction(reversed), Self.coins], for: account) == .updated)
            #expect(try await storage.balances(of: "alice") == ["coins": 10])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRevokedVersionPostedByTheAppTakesTheGrantBackAndANewerUnrevokedOneGivesItBack(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let account = UserAccount(user: "alice", appAccountToken: "alice-token")
            #expect(try await storage.keep([.transaction(Samples.transaction("1000", user: "alice", signedDate: 100)), Self.coins], for: account) == .inserted)
            #expect(try await storage.balances(of: "alice") == ["coins": 10])
            // The app posts the refunded version (no notification): the grant goes.
            let refunded = Samples.transaction("1000", user: "alice", signedDate: 200, revocationDate: 150)
            #expect(try await storage.keep([.transaction(refunded), Self.coins], for: account) == .updated)
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            // An older copy posted again changes nothing; the reversal's newer copy gives it back.
            #expect(try await storage.keep([.transaction(Samples.transaction("1000", user: "alice", signedDate: 100)), Self.coins], for: account) == .unchanged)
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            #expect(try await storage.keep([.transaction(Samples.transaction("1000", user: "alice", signedDate: 300)), Self.coins], for: account) == .updated)
            #expect(try await storage.balances(of: "alice") == ["coins": 10])
        }
    }

    @Test(arguments: TestBackend.available)
    func ownershipFollowsTheOriginalTransaction(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.keep(TransferTests.period("500", user: "alice", signedDate: 100))
            // Mallory posts the renewal (no appAccountToken): it is alice's purchase.
            #expect(try await storage.keep(TransferTests.period("501", user: "mallory", signedDate: 200)) == .ownedByAnotherUser)
            #expect(try await storage.transactions(of: "mallory").isEmpty)
            #expect(try await storage.holder(of: "501", originalTransactionID: "500", ownership: StoredTransaction.purchased) == "alice")
            #expect(try await storage.keep(TransferTests.period("501", user: "alice", signedDate: 200)) == .inserted)
            // A renewal carrying an appAccountToken is the token's user's.
            var tokened = TransferTests.period("502", user: "bob", signedDate: 300)
            tokened.appAccountToken = "bob-token"
            #expect(try await storage.keep(tokened) == .inserted)
            // A family member's copy is not the purchaser's, whatever its original.
            var shared = TransferTests.period("900", user: "carol", signedDate: 300)
            shared.ownership = StoredTransaction.familyShared
            #expect(try await storage.keep(shared) == .inserted)
            #expect(try await storage.holder(of: "901", originalTransactionID: "500", ownership: StoredTransaction.familyShared) == "carol")
        }
    }

    @Test(arguments: TestBackend.available)
    func toldTransactionsAreFoundByTokenOrByTheOriginalTheUserHolds(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            var renewal = TransferTests.period("501", user: "", signedDate: 200)
            renewal.payload = "told"
            var tokened = Samples.transaction("700", user: "", signedDate: 100)
            tokened.appAccountToken = "bob-token"
            _ = try await storage.receive(Samples.notification("n"))
            #expect(try await storage.process(notificationUUID: "n", effects: [.toldTransaction(renewal), .toldTransaction(tokened)], at: 1))
            // An older told version does not replace a newer one.
            _ = try await storage.receive(Samples.notification("n-old"))
            #expect(try await storage.process(
                notificationUUID: "n-old", effects: [.toldTransaction(TransferTests.period("501", user: "", signedDate: 150))], at: 1))
            #expect(try await storage.toldTransactions(for: "alice", appAccountToken: "alice-token").isEmpty)
            _ = try await storage.keep(TransferTests.period("500", user: "alice", signedDate: 100))
            #expect(try await storage.toldTransactions(for: "alice", appAccountToken: "alice-token").map(\.payload) == ["told"])
            #expect(try await storage.toldTransactions(for: "bob", appAccountToken: "bob-token").map(\.transactionID) == ["700"])
            // Kept for the user: told no more.
            _ = try await storage.keep(TransferTests.period("501", user: "alice", signedDate: 100))
            #expect(try await storage.lookUpTransaction("501")?.payload == "told")
            #expect(try await storage.toldTransactions(for: "alice", appAccountToken: "alice-token").isEmpty)
            // A told version of a transaction someone holds goes to that holder.
            _ = try await storage.receive(Samples.notification("n-held"))
            #expect(try await storage.process(
                notificationUUID: "n-held", effects: [.toldTransaction(TransferTests.period("501", user: "", signedDate: 400))], at: 1))
            #expect(try await storage.lookUpTransaction("501")?.signedDate == 400)
        }
    }

    @Test(arguments: TestBackend.available)
    func sandboxAndProductionBalancesAreApart(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1", balance: "coins", amount: 100, environment: "Sandbox"))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "2", balance: "coins", amount: 7, environment: "Production"))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 7])
            #expect(try await storage.balances(of: "alice", environment: "Sandbox") == ["coins": 100])
            let tooMuch = SpendRequest(user: "alice", key: "k", balance: "coins", amount: 50, environment: "Production")
            #expect(try await storage.spend(tooMuch) == .insufficient(available: 7))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 50, environment: "Sandbox")) == .spent(remaining: 50))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 7])
        }
    }
}
