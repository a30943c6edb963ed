import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime

/// A store backend for queue tests: it keeps its unfinished transactions
/// as the App Store does (delivered again at every connect until finished),
/// answers payments with an outcome the test chooses, and lets a test
/// deliver any update at any time (duplicates, out of order).
actor ScriptedStore: StoreBackend {
    /// What a payment turns into.
    enum Outcome: Sendable {
        case purchased
        case failed(StoreErrorCode)
        case deferred
    }

    private var sink: StoreEventSink?
    private(set) var unfinished: [String: StoreTransaction] = [:]
    private var order: [String] = []
    private(set) var finished: [String] = []
    private(set) var finishCalls = 0
    private var completed: [StoreTransaction] = []
    private var counter = 0
    var outcome: Outcome = .purchased
    /// Every payment the queue sent, in order.
    private(set) var payments: [Payment] = []
    /// How many of the next finish calls fail with a passing reason.
    var failFinishes = 0
    let receipt: [UInt8] = Array("receipt-data".utf8)
    let clock: Date

    init(clock: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.clock = clock
    }

    func connect(_ sink: StoreEventSink) async {
        self.sink = sink
        for id in order { if let transaction = unfinished[id] { sink.send(.updated(transaction)) } }
    }

    func add(_ payment: Payment) async {
        payments.append(payment)
        counter += 1
        let id = "t\(counter)"
        let purchasing = transaction(id, payment, .purchasing)
        send(purchasing)
        switch outcome {
        case .purchased: send(transaction(id, payment, .purchased))
        case .failed(let code): send(transaction(id, payment, .failed, error: code))
        case .deferred: send(transaction(id, payment, .deferred))
        }
    }

    func finish(transactionID: String) async throws(StepFailure) {
        finishCalls += 1
        if failFinishes > 0 {
            failFinishes -= 1
            throw .transient("the store cannot be reached")
        }
        if let transaction = unfinished.removeValue(forKey: transactionID) {
            finished.append(transactionID)
            if transaction.info.state == .purchased { completed.append(transaction) }
        }
    }

    func restoreCompletedTransactions(applicationUsername: String?) async {
        for original in completed {
            counter += 1
            var info = original.info
            info.id = "t\(counter)"
            info.state = .restored
            send(StoreTransaction(info, originalID: original.id, purchaseDate: original.purchaseDate, expirationDate: original.expirationDate))
        }
        sink?.send(.restoreFinished)
    }

    func receiptEntries() async -> [ReceiptEntry] {
        completed.map { ReceiptEntry(productID: $0.info.productID, transactionID: $0.id, purchaseDate: $0.purchaseDate, expirationDate: $0.expirationDate) }
    }

    /// Delivers an update as the store would (kept unfinished unless purchasing or deferred).
    func send(_ transaction: StoreTransaction) {
        switch transaction.info.state {
        case .purchased, .failed, .restored:
            if unfinished[transaction.id] == nil, !finished.contains(transaction.id) { order.append(transaction.id) }
            if !finished.contains(transaction.id) { unfinished[transaction.id] = transaction }
        case .purchasing, .deferred:
            break
        }
        sink?.send(.updated(transaction))
    }

    /// Delivers any other event as the store would (a revocation, say).
    func send(_ event: StoreEvent) {
        sink?.send(event)
    }

    func setOutcome(_ outcome: Outcome) { self.outcome = outcome }
    func setFailFinishes(_ count: Int) { failFinishes = count }

    func transaction(_ id: String, _ payment: Payment, _ state: TransactionState, error: StoreErrorCode? = nil) -> StoreTransaction {
        StoreTransaction(TransactionInfo(id: id, productID: payment.productID, state: state, error: error, quantity: payment.quantity,
                                         applicationUsername: payment.applicationUsername, receipt: receipt),
                         purchaseDate: clock)
    }
}
