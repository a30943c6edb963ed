import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Each operation's semantics, the same on SQLite and PostgreSQL.
@Suite struct LedgerSemanticsTests {
    @Test(arguments: TestBackend.available)
    func usersKeepTheirFirstAppAccountToken(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let token = "95ddc0f0-e6c6-58b9-bc6c-f36bd119a557"
            #expect(try await storage.register(user: "alice", appAccountToken: token) == UserAccount(user: "alice", appAccountToken: token))
            // Again, and with another token: the first one stays.
            #expect(try await storage.register(user: "alice", appAccountToken: "other").appAccountToken == token)
            #expect(try await storage.account(appAccountToken: token)?.user == "alice")
            #expect(try await storage.account(user: "bob") == nil)
            // Another user cannot take alice's token.
            await #expect(throws: StorageError.self) { try await storage.register(user: "bob", appAccountToken: token) }
            #expect(try await storage.account(user: "bob") == nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func aTransactionIsKeptOnceAndANewerSignedDateWins(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let first = Samples.transaction("1000", user: "alice", signedDate: 100)
            #expect(try await storage.keep(first) == .inserted)
            #expect(try await storage.keep(first) == .unchanged)
            let refunded = Samples.transaction("1000", user: "alice", signedDate: 200, revocationDate: 150)
            #expect(try await storage.keep(refunded) == .updated)
            // An older version arriving late changes nothing.
            #expect(try await storage.keep(first) == .unchanged)
            #expect(try await storage.transactions(of: "alice") == [refunded])
            #expect(try await storage.lookUpTransaction("1000") == refunded)
            #expect(try await storage.lookUpTransaction("9999") == nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func anotherUsersTransactionIsNeitherReplacedNorShown(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let alices = Samples.transaction("1000", user: "alice", signedDate: 100)
            #expect(try await storage.keep(alices) == .inserted)
            #expect(try await storage.keep(Samples.transaction("1000", user: "mallory", signedDate: 999)) == .ownedByAnotherUser)
            #expect(try await storage.transactions(of: "mallory").isEmpty)
            #expect(try await storage.transactions(of: "alice") == [alices])
        }
    }

    @Test(arguments: TestBackend.available)
    func whatAppleSaysOfASubscriptionKeepsTheNewestSignedPartOfEach(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.keep(TransferTests.period("500", user: "alice", signedDate: 100))
            #expect(try await storage.update(SubscriptionRenewal(originalTransactionID: "500", status: 3, statusSignedDate: 10)))
            // An older status, arriving late, changes nothing.
            #expect(try await !storage.update(SubscriptionRenewal(originalTransactionID: "500", status: 4, statusSignedDate: 5)))
            // Renewal info is ordered by its own signing date, apart from the status.
            #expect(try await storage.update(
                SubscriptionRenewal(originalTransactionID: "500", gracePeriodExpiresDate: 1_000, renewalSignedDate: 7)))
            #expect(try await storage.update(
                SubscriptionRenewal(originalTransactionID: "500", status: 1, statusSignedDate: 20, gracePeriodExpiresDate: nil, renewalSignedDate: 6)))
            #expect(try await storage.renewals(of: "alice") == [
                SubscriptionRenewal(originalTransactionID: "500", status: 1, statusSignedDate: 20, gracePeriodExpiresDate: 1_000, renewalSignedDate: 7)
            ])
            #expect(try await storage.renewals(of: "mallory").isEmpty)
            // Told before anyone holds the subscription: kept, and the holder's once someone does.
            #expect(try await storage.update(SubscriptionRenewal(originalTransactionID: "700", status: 4, statusSignedDate: 3)))
            var other = TransferTests.period("700", user: "bob", signedDate: 100)
            other.originalTransactionID = "700"
            _ = try await storage.keep(other)
            #expect(try await storage.renewals(of: "bob").map(\.status) == [4])
        }
    }

    @Test(arguments: TestBackend.available)
    func aGrantIsAppliedOncePerTransactionAndBalance(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let grant = Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100)
            #expect(try await storage.apply(grant))
            #expect(try await !storage.apply(grant))
            #expect(try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "gems", amount: 2)))
            #expect(try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 50)))
            #expect(try await storage.balances(of: "alice") == ["coins": 150, "gems": 2])
            #expect(try await storage.balances(of: "bob").isEmpty)
            await #expect(throws: StorageError.self) {
                try await storage.apply(Grant(user: "alice", transactionID: "1002", balance: "coins", amount: 0))
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aSpendIsIdempotentByKeyAndNeverGoesBelowZero(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 250))
            let spend = SpendRequest(user: "alice", key: "k1", balance: "coins", amount: 100)
            #expect(try await storage.spend(spend) == .spent(remaining: 150))
            #expect(try await storage.spend(spend) == .repeated(remaining: 150))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k1", balance: "coins", amount: 5)) == .keyReused(balance: "coins", amount: 100))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k1", balance: "gems", amount: 100)) == .keyReused(balance: "coins", amount: 100))
            let tooMuch = SpendRequest(user: "alice", key: "k2", balance: "coins", amount: 151)
            #expect(try await storage.spend(tooMuch) == .insufficient(available: 150))
            #expect(try await storage.balances(of: "alice") == ["coins": 150])
            // The refused key was not kept: after a grant, the same spend goes through.
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 1))
            #expect(try await storage.spend(tooMuch) == .spent(remaining: 0))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k3", balance: "coins", amount: 1)) == .insufficient(available: 0))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k4", balance: "never-granted", amount: 1)) == .insufficient(available: 0))
            await #expect(throws: StorageError.self) {
                try await storage.spend(SpendRequest(user: "alice", key: "k5", balance: "coins", amount: -1))
            }
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
        }
    }

    @Test(arguments: TestBackend.available)
    func spendKeysAndBalancesAreEachUsersOwn(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 10))
            _ = try await storage.apply(Grant(user: "bob", transactionID: "2000", balance: "coins", amount: 10))
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "same", balance: "coins", amount: 4)) == .spent(remaining: 6))
            // Bob's spend with alice's key is his own spend, from his own balance.
            #expect(try await storage.spend(SpendRequest(user: "bob", key: "same", balance: "coins", amount: 7)) == .spent(remaining: 3))
            #expect(try await storage.spend(SpendRequest(user: "mallory", key: "same", balance: "coins", amount: 4)) == .insufficient(available: 0))
            #expect(try await storage.balances(of: "alice") == ["coins": 6])
            #expect(try await storage.balances(of: "bob") == ["coins": 3])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRecordIsKeptPerUserAndAPutReplacesIt(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let flag = ServerRecord(transactionID: "1000", productID: "com.example.pro", strategy: "server", kind: "flag", purchaseDate: 1_700_000_000.25)
            #expect(try await storage.put(flag, for: "alice") == .created)
            let counted = ServerRecord(
                transactionID: "1000", productID: "com.example.coins", strategy: "server", kind: "transaction", quantity: 5,
                purchaseDate: 1_700_000_100.5, expirationDate: 1_800_000_000)
            #expect(try await storage.put(counted, for: "alice") == .replaced)
            let receipt = ServerRecord(transactionID: "1001", productID: "com.example.pro", strategy: "server", kind: "receipt", receipt: "TUlJVA==", purchaseDate: 1)
            #expect(try await storage.put(receipt, for: "alice") == .created)
            // Bob's record of the same transaction id is his, and leaves alice's alone.
            #expect(try await storage.put(flag, for: "bob") == .created)
            #expect(try await storage.records(of: "alice") == [counted, receipt])
            #expect(try await storage.records(of: "bob") == [flag])
            #expect(try await storage.records(of: "carol").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func aNotificationIsStoredOnceAndItsEffectsAppliedOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let notification = Samples.notification("n-1", type: "CONSUMPTION_REQUEST")
            #expect(try await storage.receive(notification) == .new)
            #expect(try await storage.receive(notification) == .pending)
            let effects: [LedgerEffect] = [
                .transaction(Samples.transaction("1000", user: "alice", quantity: 2)),
                .grant(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 200)),
                .renewal(SubscriptionRenewal(originalTransactionID: "1000", status: 4, statusSignedDate: 1, gracePeriodExpiresDate: 5, renewalSignedDate: 1)),
                .consumptionRequest(ConsumptionRequest(notificationUUID: "n-1", transactionID: "1000", user: "alice", receivedAt: 1_700_000_000)),
            ]
            #expect(try await storage.process(notificationUUID: "n-1", effects: effects, at: 1_700_000_001))
            // Apple's retry: stored already, processed already, nothing applied twice.
            #expect(try await storage.receive(notification) == .processed)
            #expect(try await !storage.process(notificationUUID: "n-1", effects: effects, at: 1_700_000_002))
            #expect(try await storage.balances(of: "alice") == ["coins": 200])
            #expect(try await storage.transactions(of: "alice").map(\.transactionID) == ["1000"])
            #expect(try await storage.renewals(of: "alice").map(\.status) == [4])
            #expect(try await storage.consumptionRequests() == [ConsumptionRequest(notificationUUID: "n-1", transactionID: "1000", user: "alice", receivedAt: 1_700_000_000)])
            var kept = notification
            kept.processedAt = 1_700_000_001
            #expect(try await storage.notifications(limit: 10) == [kept])
            await #expect(throws: StorageError.self) { try await storage.process(notificationUUID: "never-received", effects: [], at: 1) }
        }
    }

    @Test(arguments: TestBackend.available)
    func aRefusedEffectLeavesTheNotificationUnprocessedAndNothingApplied(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.receive(Samples.notification("n-2"))
            let good = LedgerEffect.grant(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 5))
            // A grant of nothing, after a good one: refused, and the good one is not applied either.
            let bad = LedgerEffect.grant(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 0))
            await #expect(throws: StorageError.self) { try await storage.process(notificationUUID: "n-2", effects: [good, bad], at: 1) }
            #expect(try await storage.balances(of: "alice").isEmpty)
            #expect(try await storage.receive(Samples.notification("n-2")) == .pending)
            #expect(try await storage.process(notificationUUID: "n-2", effects: [good], at: 2))
            #expect(try await storage.balances(of: "alice") == ["coins": 5])
        }
    }

    @Test(arguments: TestBackend.available)
    func notificationsAreListedNewestFirstUpToTheLimit(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            for index in 0..<5 { _ = try await storage.receive(Samples.notification("n-\(index)", receivedAt: Double(index))) }
            #expect(try await storage.notifications(limit: 3).map(\.notificationUUID) == ["n-4", "n-3", "n-2"])
        }
    }
}
