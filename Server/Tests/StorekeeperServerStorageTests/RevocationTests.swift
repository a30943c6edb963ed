import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Refunds take back what a transaction granted (what was spent is owed), and reversals give it
/// back: each once, following the newest kept version of the transaction, on both backends.
@Suite struct RevocationTests {
    static let tasks = 40

    @Test(arguments: TestBackend.available)
    func aRevocationTakesBackTheWholeGrantOnceAndWhatWasSpentIsOwed(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 5))
            _ = try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 30))
            let refund = GrantRevocation(transactionID: "1000", date: 50)
            #expect(try await storage.revokeGrants(refund))
            // 105 granted, 30 spent, 100 refunded: the net is -25, owed (not 0, which would forgive the 25).
            #expect(try await storage.balances(of: "alice") == ["coins": -25])
            #expect(try await !storage.revokeGrants(refund))
            #expect(try await storage.balances(of: "alice") == ["coins": -25])
            // Nothing can be spent while it is owed; a later grant pays the debt first.
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k2", balance: "coins", amount: 1)) == .insufficient(available: 0))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1002", balance: "coins", amount: 30))
            #expect(try await storage.balances(of: "alice") == ["coins": 5])
            // A reversal gives back what was taken, once.
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 105])
            #expect(try await !storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 105])
            // Nothing granted, nothing revoked.
            #expect(try await !storage.revokeGrants(GrantRevocation(transactionID: "9999", date: 50)))
        }
    }

    /// Apple: "if 1 of 3 items was refunded, the value would be approximately 33.333", a share that
    /// applies to the full quantity, in milliunits
    /// (https://developer.apple.com/documentation/storekit/transaction/revocationpercentage,
    /// https://developer.apple.com/documentation/appstoreservernotifications/revocationpercentage):
    /// the units taken back are that share rounded to the nearest unit, halves up.
    @Test(arguments: TestBackend.available)
    func aProratedRefundTakesItsShareRoundedToTheNearestUnit(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "items", amount: 3))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "coins", amount: 100))
            _ = try await storage.apply(Grant(user: "alice", transactionID: "1001", balance: "gems", amount: 10))
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", share: 33_333, date: 50)))
            // 25.000 %: a quarter of 100, and 2.5 of 10 rounded half up to 3.
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1001", share: 25_000, date: 50)))
            #expect(try await storage.balances(of: "alice") == ["items": 2, "coins": 75, "gems": 7])
            #expect(try await storage.reinstateGrants(of: "1001"))
            #expect(try await storage.balances(of: "alice") == ["items": 2, "coins": 100, "gems": 10])
            await #expect(throws: StorageError.self) {
                try await storage.revokeGrants(GrantRevocation(transactionID: "1000", share: 100_001, date: 50))
            }
        }
    }

    @Test func theShareIsRoundedHalfUpWithoutOverflow() {
        #expect(GrantRevocation.portion(33_333, of: 3) == 1)
        #expect(GrantRevocation.portion(50_000, of: 1) == 1)
        #expect(GrantRevocation.portion(49_999, of: 1) == 0)
        #expect(GrantRevocation.portion(15, of: 10_000) == 2)
        #expect(GrantRevocation.portion(GrantRevocation.whole, of: Int.max) == Int.max)
        #expect(GrantRevocation.portion(0, of: Int.max) == 0)
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
    func aRevocationAndSpendsAtOnceSumToTheSameNet(backend: TestBackend) async throws {
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
            // 60 granted, 30 taken back whenever it came, `spent` spent (each accepted only while the net held 1).
            #expect(spent <= 60)
            #expect(try await second.balances(of: "alice") == ["coins": 30 - spent])
            // The reversal gives the 30 back, to the coin.
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
