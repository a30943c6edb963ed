import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The store of the durable benchmark: on connect it delivers every one of its transactions at once,
/// as the App Store delivers what is unfinished at launch; it records each finish, and does nothing else.
final class BenchmarkStore: StoreBackend, @unchecked Sendable {
    private let transactions: [StoreTransaction]
    /// Guards `finished` and `finishCalls`.
    private let lock = NSLock()
    private var finished = Set<String>()
    private var finishCalls = 0

    /// A store holding these transactions, unfinished.
    init(_ transactions: [StoreTransaction]) {
        self.transactions = transactions
        finished.reserveCapacity(transactions.count)
    }

    func connect(_ sink: StoreEventSink) async {
        for transaction in transactions { sink.send(.updated(transaction)) }
    }

    func add(_ payment: Payment) async {}

    func finish(transactionID: String) async throws(StepFailure) {
        lock.withLock {
            finishCalls += 1
            finished.insert(transactionID)
        }
    }

    func restoreCompletedTransactions(applicationUsername: String?) async {}

    func receiptEntries() async -> [ReceiptEntry] { [] }

    /// How many times `finish` was called, and for how many distinct transactions.
    var finishes: (calls: Int, distinct: Int) {
        lock.withLock { (finishCalls, finished.count) }
    }
}
