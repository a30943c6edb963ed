/// A storage that can say cheaply whether its database answers: what
/// `GET /health`, which anyone may call, asks, instead of anything that
/// takes a lock or writes.
public protocol StorageProbe: Sendable {
    /// The database's schema version, read without a lock or a write; throws
    /// when the database cannot answer (``StorageError/transient(_:)``) or has
    /// not been migrated.
    func probe() async throws -> Int
}
