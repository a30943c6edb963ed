extension SQLLedgerStorage {
    /// The newest migration applied, read with one `SELECT` and no lock: unlike
    /// ``schemaVersion()``, it neither creates the version table nor waits for a
    /// migration, so `/health` costs one read however often it is called.
    public func probe() async throws -> Int {
        try await database.read { try await LedgerSchema.currentVersion(in: $0) }
    }
}
