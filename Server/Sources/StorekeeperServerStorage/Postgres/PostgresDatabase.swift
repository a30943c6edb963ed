import Logging
import PostgresNIO

/// ``SQLDatabase`` on a postgres-nio client (a connection pool). Each
/// transaction runs on one leased connection at READ COMMITTED, where the
/// ledger's unique keys, `ON CONFLICT DO NOTHING` and conditional `UPDATE`s
/// are what make it idempotent; serialization failures and deadlocks are
/// retried, then answered ``StorageError/transient(_:)``.
struct PostgresDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    /// Tries of one transaction that fails with a serialization failure or a deadlock.
    let attempts: Int
    /// The schema the ledger's tables live in (the connections' `search_path`); nil for `public`.
    let schema: String?

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

    private func once<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = logger
        return try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let result = try await body(PostgresSession(connection: connection, logger: logger))
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
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
    private static let unavailable = ["08", "53", "57P"]
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
        var result = ""
        var index = 0
        for character in sql {
            if character == "?" {
                index += 1
                result += "$\(index)"
            } else {
                result.append(character)
            }
        }
        return result
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
