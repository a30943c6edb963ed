import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Refunds take back what a transaction granted, and reversals give it back: each once, never
/// below zero, following the newest kept version of the transaction, on both backends.
@Suite struct RevocationTests {
    static let tasks = 40

    @Test(arguments: TestBackend.available)
    func aRevocationTakesBackTheGrantOnceAndNeverBelowZero(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 5))
            _ = try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 30))
            let refund = GrantRevocation(transactionID: "1000", date: 50)
            #expect(try await storage.revokeGrants(refund))
            // 75 were left: all of them go (the other purchase's 5 included), not 100, and not below zero.
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            #expect(try await !storage.revokeGrants(refund))
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            // A reversal gives back what was taken, once.
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 75])
            #expect(try await !storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 75])
            // Nothing granted, nothing revoked.
            #expect(try await !storage.revokeGrants(GrantRevocation(transactionID: "9999", date: 50)))
        }
    }

    @Test(arguments: TestBackend.available)
    func aProratedRefundTakesItsShareOfEachGrant(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "gems", amount: 10))
            // 25.000 %: a quarter of 100, and 2.5 of 10 rounded down.
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", share: 25_000, date: 50)))
            #expect(try await storage.balances(of: "alice") == ["coins": 75, "gems": 8])
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 100, "gems": 10])
            await #expect(throws: StorageError.self) {
                try await storage.revokeGrants(GrantRevocation(transactionID: "1000", share: 100_001, date: 50))
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func theNewestKeptVersionOfTheTransactionDecides(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            let bought = Samples.transaction("1000", user: "alice", signedDate: 100)
            let refunded = Samples.transaction("1000", user: "alice", signedDate: 200, revocationDate: 150)
            let reversed = Samples.transaction("1000", user: "alice", signedDate: 300)
            try await Self.process("bought", storage, [.transaction(bought), .grant(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 10))])
            // A revocation while the transaction stands takes nothing.
            #expect(try await !storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 150)))
            try await Self.process("refund", storage, [.transaction(refunded), .revokeGrants(GrantRevocation(transactionID: "1000", date: 150))])
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            // A reversal while the transaction is kept revoked gives nothing back.
            #expect(try await !storage.reinstateGrants(of: "1000"))
            try await Self.process("reversal", storage, [.transaction(reversed), .reinstateGrants(transactionID: "1000")])
            #expect(try await storage.balances(of: "alice") == ["coins": 10])
            // The refund again, under another notification and older than the reversal: nothing.
            try await Self.process("refund-late", storage, [.transaction(refunded), .revokeGrants(GrantRevocation(transactionID: "1000", date: 150))])
            #expect(try await storage.balances(of: "alice") == ["coins": 10])
            #expect(try await storage.lookUpTransaction("1000") == reversed)
        }
    }

    @Test(arguments: TestBackend.available)
    func theSameRevocationAndReversalAtOnceApplyOnce(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await first.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 100))
            let revoked = try await Self.atOnce(first, second) { try await $0.revokeGrants(GrantRevocation(transactionID: "1000", date: 1)) }
            #expect(revoked.filter { $0 }.count == 1)
            #expect(try await second.balances(of: "alice") == ["coins": 100])
            let reinstated = try await Self.atOnce(first, second) { try await $0.reinstateGrants(of: "1000") }
            #expect(reinstated.filter { $0 }.count == 1)
            #expect(try await second.balances(of: "alice") == ["coins": 200])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRevocationAndSpendsAtOnceNeverGoBelowZero(backend: TestBackend) async throws {
        try await backend.withStorage { (first: any LedgerStorage, second: any LedgerStorage) async throws in
            _ = try await first.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 30))
            _ = try await first.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 30))
            async let revoked = first.revokeGrants(GrantRevocation(transactionID: "1000", date: 1))
            let spent = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<Self.tasks {
                    let storage = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let outcome = try await storage.spend(SpendRequest(user: "alice", key: "k\(index)", balance: "coins", amount: 1))
                        if case .spent = outcome { return 1 }
                        return 0
                    }
                }
                var total = 0
                for try await count in group { total += count }
                return total
            }
            #expect(try await revoked)
            // 60 granted, 40 spends of 1: the revocation took what it found, at most 30, never below zero ...
            let left = try await second.balances(of: "alice")["coins"] ?? -1
            #expect(left >= 0 && left <= 60 - spent)
            // ... and recorded exactly that: the reversal gives it back, to the coin.
            #expect(try await second.reinstateGrants(of: "1000"))
            #expect(try await first.balances(of: "alice") == ["coins": 60 - spent])
        }
    }

    /// Stores a notification and processes it with `effects`.
    static func process(_ uuid: String, _ storage: any LedgerStorage, _ effects: [LedgerEffect]) async throws {
        _ = try await storage.receive(Samples.notification(uuid))
        #expect(try await storage.process(notificationUUID: uuid, effects: effects, at: 1))
    }

    /// `body` run by many tasks at once, half on each storage instance.
    static func atOnce(
        _ first: any LedgerStorage, _ second: any LedgerStorage, _ body: @escaping @Sendable (any LedgerStorage) async throws -> Bool
    ) async throws -> [Bool] {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<tasks {
                let storage = index.isMultiple(of: 2) ? first : second
                group.addTask { try await body(storage) }
            }
            var all: [Bool] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
    }
}
