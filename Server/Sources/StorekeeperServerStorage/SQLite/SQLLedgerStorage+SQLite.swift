import Foundation
import GRDB

extension SQLLedgerStorage {
    /// The ledger on SQLite through GRDB: one file in WAL mode, commits
    /// durable (`synchronous = FULL`). The default database; for one server
    /// process (or several on one machine, which wait for each other's writes).
    ///
    /// Opens (creating if needed) the database at `path`. Call ``migrate()`` before anything else.
    public static func sqlite(path: String) throws -> SQLLedgerStorage {
        guard !path.isEmpty else { throw StorageError.configuration("the SQLite database's path is empty; write sqlite:PATH") }
        var configuration = Configuration()
        // Another process holding the write lock: wait for it rather than fail at once.
        configuration.busyMode = .timeout(10)
        // Transactions span several awaits (SQLiteDatabase takes turns through a SerialGate), so GRDB
        // must allow a transaction to stay open between two of its accesses.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            return SQLLedgerStorage(database: SQLiteDatabase(pool: pool))
        } catch {
            throw StorageError.configuration("cannot open the SQLite database at '\(path)': \(error)")
        }
    }
}
