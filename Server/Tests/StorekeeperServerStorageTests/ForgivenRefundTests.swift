import StorekeeperCore
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// The catalog's `refunds: {spent-balance: forgive}` (docs/format.md, "refunds"): a refund takes back at
/// most what the balance holds when it is settled, owes nothing, and a reversal gives back only what was
/// taken; `owe`, the default, takes the whole share and the rest is owed. On both backends.
@Suite struct ForgivenRefundTests {
    static func grant(_ transaction: String, _ amount: Int, _ policy: RefundedSpendPolicy) -> Grant {
        Grant(user: "alice", transactionID: transaction, balance: "coins", amount: amount, environment: "Production", refundedSpends: policy)
    }

    static func spend(_ key: String, _ amount: Int) -> SpendRequest {
        SpendRequest(user: "alice", key: key, balance: "coins", amount: amount, environment: "Production")
    }

    @Test(arguments: TestBackend.available)
    func aRefundOfSpentCoinsTakesWhatIsLeftAndOwesNothing(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Self.grant("1000", 100, .forgive))
            _ = try await storage.spend(Self.spend("k", 80))
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 50)))
            // 100 granted, 80 spent, 100 refunded: 20 taken, 80 forgiven, nothing owed.
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 0])
            // Settling the same refund again after new coins arrive takes nothing more.
            _ = try await storage.apply(Self.grant("1001", 50, .forgive))
            #expect(try await !storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 50)))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 50])
            // The reversal gives back the 20 taken, not the 80 forgiven.
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 70])
            // Refunded again: at most what is held now (70 of the 100 asked for).
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 60)))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 0])
        }
    }

    @Test(arguments: TestBackend.available)
    func underOweTheSameLifeLeavesADebtThatTheReversalRepays(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Self.grant("1000", 100, .owe))
            _ = try await storage.spend(Self.spend("k", 80))
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 50)))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": -80])
            _ = try await storage.apply(Self.grant("1001", 50, .owe))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": -30])
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 70])
        }
    }

    @Test(arguments: TestBackend.available)
    func aProratedForgivenRefundTakesItsShareWhileTheBalanceHoldsIt(backend: TestBackend) async throws {
        try await backend.withStorage { (storage: any LedgerStorage, _: any LedgerStorage) async throws in
            _ = try await storage.apply(Self.grant("1000", 10, .forgive))
            // 25% of 10 is 2.5, halves up: 3, held in full.
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", share: 25_000, date: 50)))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 7])
        }
    }
}
