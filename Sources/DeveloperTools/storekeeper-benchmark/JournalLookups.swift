import Foundation
// GRDB comes with StorekeeperQueue, which links it.
import GRDB
import StorekeeperQueue
import StorekeeperRuntime

/// For profilers (`dispatch --profile lookups`): what one keyed lookup per transaction costs, the
/// lookup the queue makes for each store update (`Journal.situations(of:)`), three ways, on a table
/// shaped like the journal's `dispatches` and holding `count` rows: through `DatabaseQueue.read`
/// (a read-only transaction: `PRAGMA query_only` on and off around it, which expires every prepared
/// statement, so the cached one is compiled again each time), through `DatabaseQueue.inDatabase` (the
/// cached statement stays prepared), and one query per 512 ids (`WHERE transaction_id IN (…)`).
enum JournalLookups {
    /// Microseconds a lookup, each way.
    static func measure(_ transactions: [DispatchTransaction], path: String) throws -> [(String, Double)] {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let database = try DatabaseQueue(path: path, configuration: configuration)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE dispatches (transaction_id TEXT NOT NULL, slot INTEGER NOT NULL, rank INTEGER NOT NULL,
                    status INTEGER NOT NULL, PRIMARY KEY (transaction_id, slot)) WITHOUT ROWID
                """)
            let insert = try db.cachedStatement(sql: "INSERT INTO dispatches VALUES (?, 2, 2, 3)")
            for item in transactions { try insert.execute(arguments: [item.transaction.info.id]) }
        }
        let ids = transactions.map(\.transaction.info.id)
        let sql = "SELECT slot, rank, status FROM dispatches WHERE transaction_id = ?"
        var results: [(String, Double)] = []
        var found = 0
        var start = MonotonicClock.nanoseconds()
        for id in ids {
            found += try database.read { db in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).count }
        }
        results.append(("DatabaseQueue.read, one id", Double(MonotonicClock.nanoseconds() - start) / 1e3 / Double(ids.count)))
        start = MonotonicClock.nanoseconds()
        for id in ids {
            found += try database.inDatabase { db in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).count }
        }
        results.append(("DatabaseQueue.inDatabase, one id", Double(MonotonicClock.nanoseconds() - start) / 1e3 / Double(ids.count)))
        start = MonotonicClock.nanoseconds()
        var position = 0
        while position < ids.count {
            let chunk = Array(ids[position..<min(ids.count, position + 512)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            found += try database.inDatabase { db in
                try Row.fetchAll(db.cachedStatement(sql: "SELECT transaction_id, slot, rank, status FROM dispatches WHERE transaction_id IN (\(marks))"),
                                 arguments: StatementArguments(chunk)).count
            }
            position += chunk.count
        }
        results.append(("DatabaseQueue.inDatabase, 512 ids a query", Double(MonotonicClock.nanoseconds() - start) / 1e3 / Double(ids.count)))
        guard found == 3 * ids.count else { throw BenchmarkError("the lookups found \(found) rows, not \(3 * ids.count)") }
        try database.close()
        return results
    }
}
