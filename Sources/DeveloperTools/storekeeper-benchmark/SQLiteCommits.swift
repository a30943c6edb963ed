import Foundation
// GRDB comes with StorekeeperQueue, which links it; the baseline uses it as the journal does.
import GRDB
import StorekeeperQueue
import StorekeeperRuntime

/// The floor under the durable queue: raw SQLite commits on the same disk, through GRDB, in WAL mode as
/// the journal is. One row per transaction (its id, product, quantity, date and a status), inserted
/// with a cached statement, `rowsPerCommit` rows in each database transaction.
enum SQLiteCommits {
    /// Inserts every transaction's row, `rowsPerCommit` at a time, into a new database at `path` with
    /// `PRAGMA synchronous = synchronous`; returns the seconds from the first commit's start to the last's end.
    ///
    /// - Throws: ``BenchmarkError`` when SQLite fails.
    static func insert(_ transactions: [DispatchTransaction], rowsPerCommit: Int, synchronous: String, path: String) throws -> Double {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in
                try db.execute(sql: """
                    CREATE TABLE rows (id TEXT PRIMARY KEY, product TEXT NOT NULL, quantity INTEGER NOT NULL,
                        purchase_date REAL NOT NULL, status INTEGER NOT NULL)
                    """)
            }
            let start = MonotonicClock.nanoseconds()
            var position = 0
            while position < transactions.count {
                let end = min(transactions.count, position + rowsPerCommit)
                let range = position..<end
                try database.write { db in
                    let statement = try db.cachedStatement(sql: "INSERT INTO rows (id, product, quantity, purchase_date, status) VALUES (?, ?, ?, ?, 3)")
                    for item in transactions[range] {
                        let info = item.transaction.info
                        try statement.execute(arguments: [info.id, info.productID, info.quantity,
                                                          item.transaction.purchaseDate.timeIntervalSince1970])
                    }
                }
                position = end
            }
            let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
            try database.close()
            return seconds
        } catch {
            throw BenchmarkError("SQLite at \(path): \(error)")
        }
    }
}
