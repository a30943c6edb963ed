@testable import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Migration 2 on a database that version 1 made and used: what it holds stays, and refunds work on it.
@Suite struct RevocationMigrationTests {
    @Test(arguments: TestBackend.available)
    func aVersion1DatabaseKeepsItsGrantsAndCanRevokeThem(backend: TestBackend) async throws {
        try await backend.withUnmigrated { (open: @Sendable () async throws -> any LedgerStorage) async throws in
            guard let storage = try await open() as? SQLLedgerStorage else {
                Issue.record("the test backend's storage is not SQLLedgerStorage")
                return
            }
            let firstVersion = Array(LedgerSchema.migrations.prefix(1))
            try await storage.database.withMigrationLock { try await LedgerSchema.apply(firstVersion, in: $0) }
            #expect(try await storage.schemaVersion() == 1)
            #expect(try await storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100)))

            try await storage.migrate()
            #expect(try await storage.schemaVersion() == LedgerSchema.latestVersion)
            #expect(try await storage.balances(of: "alice") == ["coins": 100])
            #expect(try await !storage.apply(Grant(user: "alice", transactionID: "1000", balance: "coins", amount: 100)))
            #expect(try await storage.revokeGrants(GrantRevocation(transactionID: "1000", date: 1)))
            #expect(try await storage.balances(of: "alice") == ["coins": 0])
            #expect(try await storage.reinstateGrants(of: "1000"))
            #expect(try await storage.balances(of: "alice") == ["coins": 100])
        }
    }
}
