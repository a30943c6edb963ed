import GRDB

/// ``SQLDatabase`` on a GRDB pool: each transaction is `BEGIN IMMEDIATE`
/// (the write lock from the start, so two never deadlock upgrading a read
/// lock), taken in turn through a ``SerialGate`` within the process and
/// through SQLite's busy timeout across processes.
struct SQLiteDatabase: SQLDatabase {
    let pool: DatabasePool
    private let gate = SerialGate()
    /// How many times a busy database is tried again before the caller hears `transient`.
    private let attempts = 3

    init(pool: DatabasePool) { self.pool = pool }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await gate.run { try await once(body) }
            } catch let error as DatabaseError where Self.isBusy(error) {
                guard attempt < attempts else { throw StorageError.transient("SQLite is busy: \(error.message ?? "\(error.resultCode)")") }
                attempt += 1
            }
        }
    }

    /// SQLite's `BEGIN IMMEDIATE` is the migration lock: one writer at a time, across processes too.
    func withMigrationLock<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await transaction(body)
    }

    private func once<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let session = SQLiteSession(pool: pool)
        try await pool.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        do {
            let result = try await body(session)
            try await pool.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
            return result
        } catch {
            try? await pool.writeWithoutTransaction { db in
                if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
            }
            throw error
        }
    }

    private static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}

/// Statements of one SQLite transaction, each run on the pool's writer.
private struct SQLiteSession: SQLSession {
    let pool: DatabasePool

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let arguments = StatementArguments(binds.map(Self.databaseValue))
        return try await pool.writeWithoutTransaction { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                SQLRow(values: (0..<row.count).map { Self.value(row[$0] as DatabaseValue) })
            }
        }
    }

    private static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .text(let text): text.databaseValue
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .null: .null
        }
    }

    private static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        // The schema has no BLOB column; a blob is read as the text it holds, so it is never lost silently.
        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
        }
    }
}
