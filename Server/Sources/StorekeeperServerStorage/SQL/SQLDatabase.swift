/// One database transaction in progress: statements written with `?`
/// placeholders, the same text for SQLite and PostgreSQL.
protocol SQLSession: Sendable {
    /// Runs one statement and answers its rows (a `RETURNING` clause's, or none).
    func rows(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

/// A database the ledger's statements run on: SQLite or PostgreSQL.
protocol SQLDatabase: Sendable {
    /// Runs `body` in one database transaction, committed when it returns and
    /// rolled back when it throws; a serialization failure or deadlock is
    /// retried a bounded number of times, then ``StorageError/transient(_:)``.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T

    /// Runs `body` in one database transaction holding the backend's
    /// migration lock (PostgreSQL: an advisory transaction lock; SQLite: an
    /// immediate transaction), so that instances starting at once migrate
    /// one after the other and each migration applies exactly once.
    func withMigrationLock<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T

    /// Runs `body`, which only reads, without a database transaction of its
    /// own and without any lock: a reader that never waits for writers (SQLite's
    /// WAL readers) or one statement on a pooled connection (PostgreSQL). For
    /// cheap checks such as `/health`; a database that cannot answer throws
    /// ``StorageError/transient(_:)``.
    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T
}

extension SQLSession {
    @discardableResult
    func run(_ sql: String, _ binds: SQLValue...) async throws -> [SQLRow] {
        try await rows(sql, binds)
    }
}
