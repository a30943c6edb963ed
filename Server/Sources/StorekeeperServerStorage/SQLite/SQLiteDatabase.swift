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

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        do {
            return try await body(SQLiteReadSession(pool: pool))
        } catch let error as DatabaseError where Self.isBusy(error) {
            throw StorageError.transient("SQLite is busy: \(error.message ?? "\(error.resultCode)")")
        }
    }

    private func once<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let session = SQLiteSession(pool: pool)
        do {
            try await pool.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            let result = try await body(session)
            // The work is done: a cancellation now must not leave the transaction open (nor lose it).
            try await Self.uncancelled { try await pool.writeWithoutTransaction { try $0.execute(sql: "COMMIT") } }
            return result
        } catch {
            await Self.rollBack(pool)
            throw error
        }
    }

    /// Ends the writer's open transaction, if any, even when the calling task is cancelled: GRDB
    /// refuses to run anything for a cancelled task, and a transaction left open would make every
    /// later `BEGIN IMMEDIATE` fail (and leave a partial write to be committed by someone else).
    private static func rollBack(_ pool: DatabasePool) async {
        try? await uncancelled {
            try await pool.writeWithoutTransaction { db in
                if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
            }
        }
    }

    /// Runs `work` in a task of its own, which the caller's cancellation does not reach.
    private static func uncancelled<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await work() }.value
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
        return try await pool.writeWithoutTransaction { db in try Self.fetch(db, sql, arguments) }
    }

    /// The rows of `sql`, as the ledger reads them.
    static func fetch(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [SQLRow] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            SQLRow(values: (0..<row.count).map { value(row[$0] as DatabaseValue) })
        }
    }

    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .text(let text): text.databaseValue
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .null: .null
        }
    }

    static func value(_ value: DatabaseValue) -> SQLValue {
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

/// Statements that only read, each on one of the pool's readers (WAL: never waiting for the writer).
private struct SQLiteReadSession: SQLSession {
    let pool: DatabasePool

    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let arguments = StatementArguments(binds.map(SQLiteSession.databaseValue))
        return try await pool.read { db in try SQLiteSession.fetch(db, sql, arguments) }
    }
}
