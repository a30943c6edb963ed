import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// What each round of the durable part of `storekeeper-benchmark dispatch` measures, in an order that
/// rotates from round to round: the queue three ways, and raw SQLite commits on the same disk.
enum DurableContender: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `TransactionQueue`, durability `.full`, `batchLimit` 512 (the default).
    case queueFull
    /// `TransactionQueue`, durability `.appCrash`, `batchLimit` 512.
    case queueAppCrash
    /// `TransactionQueue`, durability `.full`, `batchLimit` 1: a commit per store event.
    case queueUnbatched
    /// SQLite, `synchronous=FULL`, one row per commit.
    case sqliteSingleFull
    /// SQLite, `synchronous=FULL`, 512 rows per commit.
    case sqliteBatchedFull
    /// SQLite, `synchronous=NORMAL`, one row per commit.
    case sqliteSingleNormal
    /// SQLite, `synchronous=NORMAL`, 512 rows per commit.
    case sqliteBatchedNormal

    /// The queue's default batch, which the batched SQLite baselines use too.
    static let batch = 512

    var description: String {
        switch self {
        case .queueFull: "queue, .full, batchLimit 512"
        case .queueAppCrash: "queue, .appCrash, batchLimit 512"
        case .queueUnbatched: "queue, .full, batchLimit 1"
        case .sqliteSingleFull: "SQLite FULL, 1 row a commit"
        case .sqliteBatchedFull: "SQLite FULL, 512 rows a commit"
        case .sqliteSingleNormal: "SQLite NORMAL, 1 row a commit"
        case .sqliteBatchedNormal: "SQLite NORMAL, 512 rows a commit"
        }
    }

    /// A short name for the progress lines.
    var tag: String {
        switch self {
        case .queueFull: "queue-full"
        case .queueAppCrash: "queue-appCrash"
        case .queueUnbatched: "queue-unbatched"
        case .sqliteSingleFull: "sqlite-full-1"
        case .sqliteBatchedFull: "sqlite-full-512"
        case .sqliteSingleNormal: "sqlite-normal-1"
        case .sqliteBatchedNormal: "sqlite-normal-512"
        }
    }

    /// Whether it runs the unbatched (smaller) set of transactions.
    var isUnbatched: Bool { self == .queueUnbatched || self == .sqliteSingleFull || self == .sqliteSingleNormal }

    /// Runs once over `transactions` with files in `folder`; returns transactions (or rows) a second.
    ///
    /// - Throws: ``BenchmarkError`` when the queue or SQLite fails, or the queue did not finish every
    ///   transaction exactly once with the `expected` entitlements.
    func run(policy: CompiledPolicy, transactions: [DispatchTransaction], expected: Entitlements, folder: String) async throws -> Double {
        let path = "\(folder)/\(tag)-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let seconds: Double
        switch self {
        case .queueFull:
            seconds = try await Self.runQueue(policy, transactions, .full, batchLimit: Self.batch, expected: expected, path: path)
        case .queueAppCrash:
            seconds = try await Self.runQueue(policy, transactions, .appCrash, batchLimit: Self.batch, expected: expected, path: path)
        case .queueUnbatched:
            seconds = try await Self.runQueue(policy, transactions, .full, batchLimit: 1, expected: expected, path: path)
        case .sqliteSingleFull:
            seconds = try SQLiteCommits.insert(transactions, rowsPerCommit: 1, synchronous: "FULL", path: path)
        case .sqliteBatchedFull:
            seconds = try SQLiteCommits.insert(transactions, rowsPerCommit: Self.batch, synchronous: "FULL", path: path)
        case .sqliteSingleNormal:
            seconds = try SQLiteCommits.insert(transactions, rowsPerCommit: 1, synchronous: "NORMAL", path: path)
        case .sqliteBatchedNormal:
            seconds = try SQLiteCommits.insert(transactions, rowsPerCommit: Self.batch, synchronous: "NORMAL", path: path)
        }
        return Double(transactions.count) / seconds
    }

    /// A new journal, a store that delivers every transaction on connect; the time from `start()` until
    /// the queue is idle with every transaction finished.
    private static func runQueue(_ policy: CompiledPolicy, _ transactions: [DispatchTransaction], _ durability: JournalDurability,
                                 batchLimit: Int, expected: Entitlements, path: String) async throws -> Double {
        let store = BenchmarkStore(transactions.map(\.transaction))
        let configuration = QueueConfiguration(journalPath: path, durability: durability, batchLimit: batchLimit)
        let queue: TransactionQueue
        do {
            queue = try TransactionQueue(policy: policy, store: store, configuration: configuration)
        } catch {
            throw BenchmarkError("the journal at \(path) does not open: \(error)")
        }
        let start = MonotonicClock.nanoseconds()
        do {
            try await queue.start()
        } catch {
            throw BenchmarkError("the queue does not start: \(error)")
        }
        await queue.whenIdle()
        let end = MonotonicClock.nanoseconds()
        let finishes = store.finishCount
        let entitlements = await queue.entitlements()
        await queue.stop()
        guard finishes.calls == transactions.count, finishes.distinct == transactions.count else {
            throw BenchmarkError("""
                the queue finished \(finishes.distinct) distinct transactions in \(finishes.calls) calls, \
                not each of the \(transactions.count) once
                """)
        }
        guard entitlements.balances == expected.balances, entitlements.features == expected.features,
              entitlements.ownedProducts == expected.ownedProducts,
              Set(entitlements.activeSubscriptions.map(\.productID)) == Set(expected.activeSubscriptions.map(\.productID))
        else {
            throw BenchmarkError("the queue's entitlements \(entitlements) are not the hand-written dispatch's \(expected)")
        }
        return Double(end - start) / 1e9
    }
}
