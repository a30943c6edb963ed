import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The store of the durable benchmark: on connect it delivers every one of its transactions at once,
/// as the App Store delivers what is unfinished at launch; it records each finish, and does nothing else.
final class BenchmarkStore: StoreBackend, Sendable {
    private let transactions: [StoreTransaction]
    /// The transactions finished, and how many times `finish` was called.
    private let finishes = Locked((finished: Set<String>(), calls: 0))

    /// A store holding these transactions, unfinished.
    init(_ transactions: [StoreTransaction]) {
        self.transactions = transactions
        finishes.withLock { $0.finished.reserveCapacity(transactions.count) }
    }

    func connect(_ sink: StoreEventSink) async {
        for transaction in transactions { sink.send(.updated(transaction)) }
    }

    func add(_ payment: Payment) async {}

    func finish(transactionID: String) async throws(StepFailure) {
        finishes.withLock {
            $0.calls += 1
            $0.finished.insert(transactionID)
        }
    }

    func restoreCompletedTransactions(applicationUsername: String?) async {}

    func receiptEntries() async -> [ReceiptEntry] { [] }

    /// How many times `finish` was called, and for how many distinct transactions.
    var finishCount: (calls: Int, distinct: Int) {
        finishes.withLock { ($0.calls, $0.finished.count) }
    }
}
