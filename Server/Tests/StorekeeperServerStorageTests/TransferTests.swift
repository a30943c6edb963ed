import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// A restore by another user under the `transfer` policy: a purchase (every transaction of its
/// original transaction) and what its grants are worth change hands in one database transaction, once.
@Suite struct TransferTests {
    @Test(arguments: TestBackend.available)
    func aTransactionMovesToAnotherUserOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let alices = Samples.transaction("1000", user: "alice", product: "com.example.pro")
            _ = try await storage.keep(alices)
            #expect(try await storage.transfer(originalTransactionID: "1000", from: "alice", to: "bob"))
            #expect(try await storage.transactions(of: "alice").isEmpty)
            var bobs = alices
            bobs.user = "bob"
            #expect(try await storage.transactions(of: "bob") == [bobs])
            // Alice no longer holds it; nobody holds 9999; bob to bob moves nothing.
            #expect(try await !storage.transfer(originalTransactionID: "1000", from: "alice", to: "bob"))
            #expect(try await !storage.transfer(originalTransactionID: "1000", from: "alice", to: "carol"))
            #expect(try await !storage.transfer(originalTransactionID: "9999", from: "alice", to: "bob"))
            #expect(try await !storage.transfer(originalTransactionID: "1000", from: "bob", to: "bob"))
            #expect(try await storage.transactions(of: "bob") == [bobs])
            await #expect(throws: StorageError.self) { try await storage.transfer(originalTransactionID: "1000", from: "bob", to: "") }
        }
    }

    @Test(arguments: TestBackend.available)
    func aTransferMovesWhatTheGrantIsWorthNotTheWholeBalance(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.keep(Samples.transaction("1000", user: "alice"))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "2000", balance: "coins", amount: 5))
            _ = try await storage.apply(Grant(user: "bob", transactionID: "3000", balance: "coins", amount: 1))
            _ = try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 40))
            #expect(try await storage.transfer(originalTransactionID: "1000", from: "alice", to: "bob"))
            // The grant is worth 100: bob gets 100; alice, who spent 40 of her 105, owes 35.
            #expect(try await storage.balances(of: "alice") == ["coins": -35])
            #expect(try await storage.balances(of: "bob") == ["coins": 101])
            // The grant is bob's now: a refund, kept as the transaction's newest version, takes it from him.
            #expect(try await storage.keep(Samples.transaction("1000", user: "bob", signedDate: 1_800_000_000, revocationDate: 1_750_000_000)) == .updated)
            #expect(try await storage.balances(of: "bob") == ["coins": 1])
            #expect(try await storage.balances(of: "alice") == ["coins": -35])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRefundedGrantMovesWorthNothing(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.keep(Samples.transaction("1000", user: "alice", signedDate: 100, revocationDate: 50))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "2000", balance: "coins", amount: 7))
            #expect(try await storage.balances(of: "alice") == ["coins": 7])
            #expect(try await storage.transfer(originalTransactionID: "1000", from: "alice", to: "bob"))
            #expect(try await storage.balances(of: "alice") == ["coins": 7])
            #expect(try await storage.balances(of: "bob").values.allSatisfy { $0 == 0 })
        }
    }

    @Test(arguments: TestBackend.available)
    func aSubscriptionMovesWhole(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let first = Self.period("500", user: "alice", signedDate: 100)
            let renewal = Self.period("501", user: "alice", signedDate: 200)
            let unrelated = Samples.transaction("600", user: "alice")
            for transaction in [first, renewal, unrelated] { _ = try await storage.keep(transaction) }
            let told = SubscriptionRenewal(originalTransactionID: "500", status: 1, statusSignedDate: 200)
            _ = try await storage.update(told)
            #expect(try await storage.transfer(originalTransactionID: "500", from: "alice", to: "bob"))
            #expect(try await storage.transactions(of: "bob").map(\.transactionID) == ["500", "501"])
            #expect(try await storage.transactions(of: "alice").map(\.transactionID) == ["600"])
            #expect(try await storage.renewals(of: "bob") == [told])
            #expect(try await storage.renewals(of: "alice").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func theSameTransferAtOnceMovesOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.keep(Samples.transaction("1000", user: "alice"))
            _ = try await first.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            let moved = try await RevocationTests.atOnce(first, second) {
                try await $0.transfer(originalTransactionID: "1000", from: "alice", to: "bob")
            }
            #expect(moved.filter { $0 }.count == 1)
            #expect(try await second.balances(of: "bob") == ["coins": 100])
            #expect(try await second.balances(of: "alice") == ["coins": 0])
        }
    }

    /// A period of the subscription whose first purchase is 500.
    static func period(_ id: String, user: String, signedDate: Double) -> StoredTransaction {
        StoredTransaction(
            transactionID: id, user: user, originalTransactionID: "500", productID: "com.example.monthly", environment: "Sandbox",
            quantity: 1, purchaseDate: signedDate, expirationDate: signedDate + 1_000, signedDate: signedDate, payload: "jws.\(id)")
    }
}
