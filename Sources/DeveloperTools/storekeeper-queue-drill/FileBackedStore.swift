import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// The drill's store: it "has" every update of a ``TransactionStream`` from
/// the start (they happened while the app was away) and keeps, in its own
/// folder, which transactions the app finished, as the App Store keeps that
/// outside the app.
///
/// On ``connect(_:)`` it delivers, in stream order, every update whose
/// transaction it has not finished; ``finish(transactionID:)`` appends the
/// id to a ``FinishedLog`` and returns only once the line is on the disk, so
/// a finish the queue saw succeed survives any kill that follows.
///
/// Its finish can kill the process before writing, after writing half a
/// line (a torn line) and after the line is flushed but before returning:
/// the last is the kill between the store's finish and the journal's commit.
actor FileBackedStore: StoreBackend {
    private let stream: TransactionStream
    private let log: FinishedLog
    private let killSwitch: KillSwitch
    private var finished: Set<String>
    private var sink: StoreEventSink?

    /// A store over `stream` whose finished log is `folder/finished.log`.
    init(folder: String, stream: TransactionStream, killSwitch: KillSwitch) throws(DrillError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw DrillError.message("cannot create the store's folder \(folder): \(error.localizedDescription)")
        }
        self.stream = stream
        log = try FinishedLog(path: "\(folder)/finished.log")
        finished = Set(log.ids)
        self.killSwitch = killSwitch
    }

    /// The transactions finished so far, deduplicated.
    var finishedIDs: Set<String> { finished }

    func connect(_ sink: StoreEventSink) async {
        self.sink = sink
        for update in stream.updates where !finished.contains(update.id) {
            sink.send(.updated(update))
        }
    }

    /// Nothing: in a drill the user buys nothing while the app runs; every
    /// transaction happened while it was away.
    func add(_ payment: Payment) async {}

    func finish(transactionID: String) async throws(StepFailure) {
        killSwitch.reach(.storeFinishBefore)
        // Finishing again does nothing, as the protocol says.
        guard !finished.contains(transactionID) else { return }
        do throws(DrillError) {
            if killSwitch.decides(.storeFinishTorn) {
                try log.appendTorn(transactionID)
                KillSwitch.die(at: .storeFinishTorn)
            }
            try log.append(transactionID)
        } catch {
            throw .transient("the store could not write its finished log: \(error)")
        }
        finished.insert(transactionID)
        killSwitch.reach(.storeFinishAfter)
    }

    /// Delivers nothing again (the drill's products restore from the receipt
    /// and iCloud), then says the restore is over.
    func restoreCompletedTransactions(applicationUsername: String?) async {
        sink?.send(.restoreFinished)
    }

    /// The purchases the store completed: what the `receipt` strategy reads.
    func receiptEntries() async -> [ReceiptEntry] {
        var purchases: [String: StoreTransaction] = [:]
        for update in stream.updates where update.info.state == .purchased { purchases[update.id] = update }
        return stream.transactions.compactMap { transaction in
            guard finished.contains(transaction.id), let purchase = purchases[transaction.id] else { return nil }
            return ReceiptEntry(productID: transaction.product, transactionID: transaction.id,
                                purchaseDate: purchase.purchaseDate, expirationDate: purchase.expirationDate)
        }
    }
}
