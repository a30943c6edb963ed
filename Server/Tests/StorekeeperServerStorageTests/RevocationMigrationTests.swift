@testable import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Migrations on databases that older versions made and used: what they hold stays, and the
/// newer semantics apply to it.
@Suite struct RevocationMigrationTests {
    @Test(arguments: TestBackend.available)
    func aVersion1DatabaseKeepsItsGrantsAndCanRevokeThem(backend: TestBackend) async throws {
        try await Self.withVersion(1, backend) { storage in
            try await storage.database.transaction { session in
                try await session.run("INSERT INTO grants (transaction_id, balance, user_id, amount) VALUES ('1000', 'coins', 'alice', 100)")
                try await session.run("INSERT INTO balances (user_id, balance, amount) VALUES ('alice', 'coins', 100)")
            }
            try await storage.migrate()
            #expect(try await storage.schemaVersion() == LedgerSchema.latestVersion)
            // No transaction says where the grant came from: Production.
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 100])
            #expect(try await !storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100, environment: "Production")))
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 1)))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 0])
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice", environment: "Production") == ["coins": 100])
        }
    }

    @Test(arguments: TestBackend.available)
    func aVersion2DatabaseKeepsItsGrantsSpendsAndSubscriptionsAndRefundsMayLeaveADebt(backend: TestBackend) async throws {
        try await Self.withVersion(2, backend) { storage in
            try await storage.database.transaction { session in
                try await session.run(
                    """
                    INSERT INTO transactions (transaction_id, user_id, original_transaction_id, product_id, environment, quantity,
                        purchase_date, signed_date, payload) VALUES ('1000', 'alice', '1000', 'coins100', 'Sandbox', 1, 10, 10, 'jws')
                    """)
                try await session.run("INSERT INTO grants (transaction_id, balance, user_id, amount) VALUES ('1000', 'coins', 'alice', 100)")
                try await session.run("INSERT INTO balances (user_id, balance, amount) VALUES ('alice', 'coins', 70)")
                try await session.run(
                    "INSERT INTO spends (user_id, spend_key, balance, amount, remaining) VALUES ('alice', 'k', 'coins', 30, 70)")
                try await session.run(
                    """
                    INSERT INTO subscriptions (original_transaction_id, user_id, product_id, status, expiration_date, signed_date)
                    VALUES ('500', 'alice', 'monthly', 'active', 100, 10)
                    """)
            }
            try await storage.migrate()
            #expect(try await storage.schemaVersion() == 3)
            // The grant came from a Sandbox transaction: so do its balance and the spend of it.
            #expect(try await storage.balances(of: "alice", environment: "Sandbox") == ["coins": 70])
            #expect(try await storage.balances(of: "alice", environment: "Production").isEmpty)
            #expect(try await storage.spend(SpendRequest(user: "alice", key: "k", balance: "coins", amount: 30, environment: "Sandbox")) == .repeated(remaining: 70))
            // The refund kept as the transaction's newest version takes all 100: 30 were spent, and are owed.
            let refunded = StoredTransaction(
                transactionID: "1000", user: "alice", originalTransactionID: "1000", productID: "coins100", environment: "Sandbox",
                quantity: 1, purchaseDate: 10, revocationDate: 20, signedDate: 20, payload: "jws2")
            #expect(try await storage.keep(refunded) == .updated)
            #expect(try await storage.balances(of: "alice", environment: "Sandbox") == ["coins": -30])
        }
    }

    /// A database migrated to `version` alone, for `body` to fill as that version's server did, then migrate.
    static func withVersion(_ version: Int, _ backend: TestBackend, _ body: @escaping @Sendable (SQLLedgerStorage) async throws -> Void) async throws {
        try await backend.withUnmigrated { (open: @Sendable () async throws -> any LedgerStorage) async throws in
            guard let storage = try await open() as? SQLLedgerStorage else {
                Issue.record("the test backend's storage is not SQLLedgerStorage")
                return
            }
            let older = Array(LedgerSchema.migrations.prefix(version))
            try await storage.database.withMigrationLock { try await LedgerSchema.apply(older, in: $0) }
            #expect(try await storage.schemaVersion() == version)
            try await body(storage)
        }
    }
}
