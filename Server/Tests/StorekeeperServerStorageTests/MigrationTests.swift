import StorekeeperServerStorage
import StorekeeperServerTestSupport
import Testing

/// Migrations: versioned, run at start, harmless run again, safe when several instances start at once.
@Suite struct MigrationTests {
    @Test(arguments: TestBackend.available)
    func aNewDatabaseIsMigratedToTheLatestVersionOnce(backend: TestBackend) async throws {
        try await backend.withUnmigrated { (open: @Sendable () async throws -> any LedgerStorage) async throws in
            let storage = try await open()
            #expect(try await storage.schemaVersion() == 0)
            try await storage.migrate()
            let version = try await storage.schemaVersion()
            #expect(version >= 1)
            // Again, as a restarted server does: nothing to apply, nothing fails.
            try await storage.migrate()
            #expect(try await storage.schemaVersion() == version)
            // The tables are there and usable.
            #expect(try await storage.apply(Grant(user: "u", transactionID: "t", balance: "coins", amount: 3)))
            #expect(try await storage.balances(of: "u") == ["coins": 3])
        }
    }

    @Test(arguments: TestBackend.available)
    func instancesStartingAtOnceMigrateWithoutError(backend: TestBackend) async throws {
        try await backend.withUnmigrated { (open: @Sendable () async throws -> any LedgerStorage) async throws in
            var instances: [any LedgerStorage] = []
            for _ in 0..<6 { instances.append(try await open()) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for instance in instances { group.addTask { try await instance.migrate() } }
                try await group.waitForAll()
            }
            let versions = try await instances.asyncMap { try await $0.schemaVersion() }
            #expect(Set(versions).count == 1)
            #expect(versions.first ?? 0 >= 1)
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
