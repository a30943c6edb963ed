import Foundation
import StorekeeperChildProcess
public import StorekeeperServerStorage

/// The backends the server's suites run against: each test runs once per backend.
public enum TestBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// The backends to test here: SQLite always; PostgreSQL unless its programs cannot be found at all
    /// (then a loud notice says so, once).
    public static let available: [TestBackend] = {
        if case .missing(let why) = TestPostgres.server {
            FileHandle.standardError.write(Data("""

                ************************************************************************
                storekeeper-server tests: PostgreSQL IS NOT TESTED on this machine:
                \(why)
                Set STOREKEEPER_TEST_POSTGRES_URL, or install PostgreSQL 15 (Scripts/postgres start).
                ************************************************************************

                """.utf8))
            return [.sqlite]
        }
        return allCases
    }()

    /// How long the suites' storages wait for a PostgreSQL connection: the suite's database is never
    /// down, but a hundred tests opening pools at once on a loaded machine can take longer than the
    /// production default (5 s) to connect. The outage itself is tested with the default
    /// (`RobustnessTests`).
    public static let testConnectionWait: Duration = .seconds(60)

    /// A fresh, migrated storage of this backend for one test (its own SQLite file, or its own
    /// PostgreSQL schema), and a second instance on the same database, as a second server process
    /// would have.
    public func withStorage(_ body: (any LedgerStorage, any LedgerStorage) async throws -> Void) async throws {
        let name = "t\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        switch self {
        case .sqlite:
            try await ScratchFolder.with(prefix: "storekeeper-storage") { folder in
                let path = folder.appendingPathComponent("ledger.sqlite").path
                let first = try SQLLedgerStorage.sqlite(path: path)
                try await first.migrate()
                try await body(first, try SQLLedgerStorage.sqlite(path: path))
            }
        case .postgres:
            let url = try TestPostgres.url()
            let first = try SQLLedgerStorage.postgres(url: url, schema: name, maximumConnections: 8, connectionWait: Self.testConnectionWait)
            let second = try SQLLedgerStorage.postgres(url: url, schema: name, maximumConnections: 8, connectionWait: Self.testConnectionWait)
            do {
                try await first.migrate()
                try await body(first, second)
            } catch {
                await first.close()
                await second.close()
                throw error
            }
            await first.close()
            await second.close()
        }
    }

    /// A storage that has not been migrated, on a new database (or schema) of its own, and a
    /// factory of more instances on the same one.
    public func withUnmigrated(_ body: (@Sendable () async throws -> any LedgerStorage) async throws -> Void) async throws {
        let name = "t\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        switch self {
        case .sqlite:
            try await ScratchFolder.with(prefix: "storekeeper-storage") { folder in
                let path = folder.appendingPathComponent("ledger.sqlite").path
                try await body { try SQLLedgerStorage.sqlite(path: path) }
            }
        case .postgres:
            let url = try TestPostgres.url()
            let opened = OpenedStorages()
            do {
                try await body {
                    try await opened.add(SQLLedgerStorage.postgres(url: url, schema: name, maximumConnections: 8, connectionWait: Self.testConnectionWait))
                }
            } catch {
                await opened.closeAll()
                throw error
            }
            await opened.closeAll()
        }
    }
}

/// PostgreSQL storages a test opened, closed when it ends.
actor OpenedStorages {
    private var storages: [SQLLedgerStorage] = []

    func add(_ storage: SQLLedgerStorage) -> SQLLedgerStorage {
        storages.append(storage)
        return storage
    }

    func closeAll() async {
        for storage in storages { await storage.close() }
    }
}
