import Foundation
import Logging
import PostgresNIO
import StorekeeperServerStorage
import StorekeeperServerTestSupport

/// Where a life's ledger lives.
public enum LifeDatabase: String, Sendable, CaseIterable, CustomStringConvertible {
    /// SQLite (one instance).
    case sqlite
    /// PostgreSQL (one or two instances).
    case postgres

    public var description: String { rawValue }
}

/// The ledgers of a run's lives, each life's empty when it starts, so that a seed replays alone exactly as
/// it ran among thousands: on SQLite a fresh file per life; on PostgreSQL one schema of the run's own,
/// migrated once and emptied (`DELETE` of every table) before each life, then dropped when the run
/// ends: ten thousand lives make no ten thousand schemas, and no migration per life. Two instances each
/// have their own storage (their own connection pool) on that schema, as two server processes would.
final class LifeLedgers: Sendable {
    private let database: LifeDatabase
    private let instances: Int
    private let postgres: Postgres?

    private struct Postgres: Sendable {
        var schema: String
        var storages: [SQLLedgerStorage]
        var client: PostgresClient
        var running: Task<Void, Never>
    }

    /// Opens (and on PostgreSQL migrates) the run's ledger.
    init(database: LifeDatabase, instances: Int, url: String?) async throws {
        self.database = database
        self.instances = instances
        switch database {
        case .sqlite:
            guard instances == 1 else { throw LivesError("SQLite is one process's database: two instances need PostgreSQL") }
            postgres = nil
        case .postgres:
            guard let url, !url.isEmpty else {
                throw LivesError("PostgreSQL needs a URL: STOREKEEPER_TEST_POSTGRES_URL, or --postgres-url-file")
            }
            let schema = "lives_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            let client = PostgresClient(configuration: try Self.configuration(url), backgroundLogger: Logger(label: "storekeeper-server-lives"))
            let running = Task { await client.run() }
            var storages: [SQLLedgerStorage] = []
            do {
                for _ in 0..<instances {
                    storages.append(try SQLLedgerStorage.postgres(url: url, schema: schema, maximumConnections: 4))
                }
                try await storages[0].migrate()
            } catch {
                for storage in storages { await storage.close() }
                _ = try? await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
                running.cancel()
                await running.value
                throw error
            }
            postgres = Postgres(schema: schema, storages: storages, client: client, running: running)
        }
    }

    /// Runs `body` with one storage per instance on an empty ledger.
    func withEmptyLedger<T>(_ body: ([any LedgerStorage]) async throws -> T) async throws -> T {
        guard let postgres else {
            return try await ScratchFolder.with(prefix: "storekeeper-lives") { folder in
                let storage = try SQLLedgerStorage.sqlite(path: folder.appendingPathComponent("ledger.sqlite").path)
                try await storage.migrate()
                return try await body([storage])
            }
        }
        let rows = try await postgres.client.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = \(postgres.schema) AND tablename <> 'storekeeper_schema'")
        var tables: [String] = []
        for try await (name) in rows.decode(String.self) { tables.append(name) }
        guard tables.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } }) else {
            throw LivesError("unexpected table names in \(postgres.schema): \(tables)")
        }
        // DELETE rather than TRUNCATE: a life leaves a few rows, and TRUNCATE makes (and syncs) new files
        // for every table each time. The ledger has no foreign keys and no sequences.
        if !tables.isEmpty {
            // One statement (data-modifying common table expressions), so one round trip and one commit.
            let deletes = tables.enumerated().map { "d\($0.offset) AS (DELETE FROM \(postgres.schema).\($0.element))" }
            try await postgres.client.query(PostgresQuery(unsafeSQL: "WITH \(deletes.joined(separator: ", ")) SELECT 1"))
        }
        return try await body(postgres.storages)
    }

    /// Closes the storages and drops the run's schema.
    func close() async {
        guard let postgres else { return }
        for storage in postgres.storages { await storage.close() }
        _ = try? await postgres.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(postgres.schema) CASCADE"))
        postgres.running.cancel()
        await postgres.running.value
    }

    /// `postgres://USER:PASSWORD@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`, read as the server's
    /// storage reads it. Errors never repeat the URL, which holds the password.
    static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql", let host = components.host, !host.isEmpty,
              let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty
        else { throw LivesError("the PostgreSQL URL is not postgres://USER:PASSWORD@HOST[:PORT]/DATABASE") }
        let database = String(components.path.drop { $0 == "/" })
        let tls: PostgresClient.Configuration.TLS = switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable" {
        case "prefer": .prefer(.makeClientConfiguration())
        case "require": .require(.makeClientConfiguration())
        default: .disable
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.percentEncodedPassword?.removingPercentEncoding,
            database: database, tls: tls)
    }
}
