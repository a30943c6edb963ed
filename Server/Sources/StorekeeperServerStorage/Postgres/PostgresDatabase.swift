import Logging
import PostgresNIO
import Synchronization

/// ``SQLDatabase`` on a postgres-nio client (a connection pool). Each
/// transaction runs on one leased connection at READ COMMITTED, where the
/// ledger's unique keys, `ON CONFLICT DO NOTHING` and conditional `UPDATE`s
/// are what make it idempotent; serialization failures and deadlocks are
/// retried, then answered ``StorageError/transient(_:)``, as is a connection
/// the pool cannot lend within ``connectionWait`` (PostgreSQL down or
/// unreachable: the pool keeps trying to connect, and would otherwise hold
/// the request until its circuit breaker trips, a minute later).
struct PostgresDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    /// Tries of one transaction that fails with a serialization failure or a deadlock.
    let attempts: Int
    /// The schema the ledger's tables live in (the connections' `search_path`); nil for `public`.
    let schema: String?
    /// How long a transaction waits for the pool to lend a connection before it is `transient`.
    let connectionWait: Duration
    /// Where the waits for a connection expire.
    let deadlines = LeaseDeadlines()

    /// The advisory lock every instance takes around its migrations ("STKPMIGR").
    static let migrationLock: Int64 = 0x53544B504D494752

    func transaction<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await once(body)
            } catch let error as PSQLError {
                let state = error.serverInfo?[.sqlState]
                if let state, let reason = Self.retried[state] {
                    guard attempt < attempts else {
                        throw StorageError.transient("PostgreSQL \(state) \(reason), \(attempts) tries")
                    }
                    attempt += 1
                    continue
                }
                if let state, Self.unavailable.contains(where: { state.hasPrefix($0) }) {
                    throw StorageError.transient("PostgreSQL \(state): \(error.serverInfo?[.message] ?? "unavailable")")
                }
                if state == nil { throw StorageError.transient("PostgreSQL connection: \(error.code)") }
                throw error
            }
        }
    }

    func withMigrationLock<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await transaction { session in
            // Held until this transaction ends: instances starting at once migrate one after the other.
            try await session.run("SELECT 1 FROM (SELECT pg_advisory_xact_lock(?)) AS locked", .integer(Self.migrationLock))
            // An identifier cannot be bound; checkSchemaName allowed only letters, digits and _.
            if let schema { try await session.run("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"") }
            return try await body(session)
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = logger
        do {
            return try await withLease { connection in try await body(PostgresSession(connection: connection, logger: logger)) }
        } catch let error as PSQLError {
            let state = error.serverInfo?[.sqlState]
            if state == nil || Self.unavailable.contains(where: { state?.hasPrefix($0) == true }) {
                throw StorageError.transient("PostgreSQL \(state ?? "connection"): \(error.serverInfo?[.message] ?? "\(error.code)")")
            }
            throw error
        }
    }

    private func once<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = logger
        return try await withLease { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let result = try await body(PostgresSession(connection: connection, logger: logger))
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                await Self.rollBack(connection, logger: logger)
                throw error
            }
        }
    }

    /// Rolls back in a task of its own, which the caller's cancellation does not reach; a connection
    /// that cannot roll back is closed rather than lent again inside an open transaction.
    private static func rollBack(_ connection: PostgresConnection, logger: Logger) async {
        let rolledBack = await Task { (try? await connection.query("ROLLBACK", logger: logger)) != nil }.value
        if !rolledBack { try? await connection.close() }
    }

    /// Runs `work` on a connection leased from the pool, waiting at most ``connectionWait`` for one:
    /// then, or when the pool refuses (its circuit breaker open after a minute of failed connects),
    /// ``StorageError/transient(_:)``. Once `work` has the connection, no deadline applies to it.
    /// The lease runs in a task of its own, which ``deadlines`` cancels when the wait expires.
    private func withLease<T: Sendable>(_ work: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let lease = LeasePhase()
        let client = client
        let wait = connectionWait
        return try await withoutActuallyEscaping(work) { work in
            let leased = Task {
                do {
                    return try await client.withConnection { connection in
                        guard lease.claim() else { throw StorageError.transient("no PostgreSQL connection within \(wait)") }
                        return try await work(connection)
                    }
                } catch where !lease.wasClaimed {
                    if error is StorageError || lease.hasExpired { throw StorageError.transient("no PostgreSQL connection within \(wait)") }
                    throw StorageError.transient("no PostgreSQL connection: \(Self.describe(error))")
                }
            }
            // Cancelling the lease request makes the pool drop it from its queue.
            let registration = deadlines.register(after: wait) { if lease.expire() { leased.cancel() } }
            defer { deadlines.remove(registration) }
            return try await withTaskCancellationHandler { try await leased.value } onCancel: { leased.cancel() }
        }
    }

    /// A pool error's description, without anything of the URL (postgres-nio's errors name the host at most).
    private static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError { return "\(error.code)" }
        return String(describing: error)
    }

    /// Refuses a schema name that is not a plain identifier, naming the rule.
    static func checkSchemaName(_ name: String) throws {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
        guard let first = name.first, letters.contains(first), name.count <= 63,
              name.allSatisfy({ letters.contains($0) || ("0"..."9").contains($0) })
        else {
            throw StorageError.configuration(
                "the PostgreSQL schema '\(name)' is not 1 to 63 letters, digits and _, starting with a letter or _")
        }
    }

    /// SQLSTATEs a retry of the whole transaction fixes.
    private static let retried = ["40001": "serialization failure", "40P01": "deadlock detected"]
    /// SQLSTATE classes of a server that cannot answer now: too many connections, shutting down, out of resources.
    static let unavailable = ["08", "53", "57P"]
}

/// Whether a lease was lent in time or its wait expired first: exactly one of the two wins, so a
/// connection lent at the deadline is never used by a request already answered 503.
private final class LeasePhase: Sendable {
    private enum Phase { case waiting, claimed, expired }
    private let phase = Mutex(Phase.waiting)

    /// The connection arrived: true when the wait had not expired.
    func claim() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .claimed
            return true
        }
    }

    /// The wait is over: true when no connection had been claimed.
    func expire() -> Bool {
        phase.withLock { phase in
            guard phase == .waiting else { return false }
            phase = .expired
            return true
        }
    }

    var wasClaimed: Bool { phase.withLock { $0 == .claimed } }

    var hasExpired: Bool { phase.withLock { $0 == .expired } }
}

/// Statements of one PostgreSQL transaction, on its connection.
private struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .null: bindings.appendNull()
            }
        }
        let query = PostgresQuery(unsafeSQL: Self.numbered(sql), binds: bindings)
        var rows: [SQLRow] = []
        for try await row in try await connection.query(query, logger: logger) {
            rows.append(SQLRow(values: try row.map(Self.value)))
        }
        return rows
    }

    /// `?` placeholders as PostgreSQL's `$1`, `$2`, ... (the ledger's SQL has no `?` in a literal).
    static func numbered(_ sql: String) -> String {
        // By UTF-8 bytes, not Characters: every statement passes here, and `?` is one byte.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sql.utf8.count + 16)
        var index = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "?") {
                index += 1
                bytes.append(UInt8(ascii: "$"))
                bytes.append(contentsOf: String(index).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .text, .varchar, .name: return .text(try cell.decode(String.self))
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        default: throw StorageError.corrupt("column '\(cell.columnName)' has PostgreSQL type \(cell.dataType), which the ledger does not use")
        }
    }
}
