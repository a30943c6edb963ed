public import Logging
import PostgresNIO

extension SQLLedgerStorage {
    /// The ledger on PostgreSQL through postgres-nio, for several server
    /// instances sharing one database: every state is in the database, and
    /// every write is idempotent there.
    ///
    /// Connects to `url` (`postgres://USER:PASSWORD@HOST[:PORT]/DATABASE[?sslmode=…]`) with at most
    /// `maximumConnections`; a transaction that meets a serialization failure or a deadlock is tried
    /// `attempts` times in all. With `schema` (letters, digits and `_`, starting with a letter or `_`), the
    /// ledger's tables live in that schema of the database, created by ``migrate()``; without, in `public`.
    /// A transaction waits at most `connectionWait` for a connection (and a connection attempt at most
    /// as long), then throws ``StorageError/transient(_:)``: a database that is down answers 503 at once
    /// rather than after the pool's minute of retries.
    /// The client's connection pool runs in a task of its own until ``close()``.
    /// Call ``migrate()`` before anything else.
    public static func postgres(
        url: String, schema: String? = nil, maximumConnections: Int = 20, attempts: Int = 5, connectionWait: Duration = .seconds(5),
        logger: Logger = Logger(label: "storekeeper.storage")
    ) throws -> SQLLedgerStorage {
        if let schema { try PostgresDatabase.checkSchemaName(schema) }
        guard maximumConnections > 0 else { throw StorageError.configuration("maximumConnections is \(maximumConnections); it must be positive") }
        guard attempts > 0 else { throw StorageError.configuration("attempts is \(attempts); it must be positive") }
        guard connectionWait > .zero else { throw StorageError.configuration("connectionWait is \(connectionWait); it must be positive") }
        var configuration = try PostgresURL.configuration(url)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectionWait
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Task { await client.run() }
        return SQLLedgerStorage(
            database: PostgresDatabase(client: client, logger: logger, attempts: attempts, schema: schema, connectionWait: connectionWait),
            closing: {
                running.cancel()
                await running.value
            })
    }
}
