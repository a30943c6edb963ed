public import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// One device's view of the simulated App Store: the `StoreBackend` its
/// queue talks to and the `HostedContentDownloader` its `download` steps use.
public struct SimulatedDevice: StoreBackend, HostedContentDownloader {
    /// The device's name.
    public let name: String
    /// The account's store.
    public let store: SimulatedAppStore

    /// Delivers the device's unfinished transactions (and refunds that
    /// happened while the app was not running), then every update.
    public func connect(_ sink: StoreEventSink) async {
        await store.connect(name, sink: sink)
    }

    /// Processes a payment, as the store was told to answer it (purchased by default).
    public func add(_ payment: Payment) async {
        await store.add(payment, device: name)
    }

    /// Finishes a transaction; fails (transiently) while the device is offline.
    public func finish(transactionID: String) async throws(StepFailure) {
        try await store.finish(transactionID, device: name)
    }

    /// Replays the account's completed transactions as `restored`.
    public func restoreCompletedTransactions(applicationUsername: String?) async {
        await store.restore(device: name, user: applicationUsername)
    }

    /// The device's copy of the receipt.
    public func receiptEntries() async -> [ReceiptEntry] {
        await store.receiptEntries(device: name)
    }

    /// Downloads a transaction's hosted content to the device's cache or documents folder.
    public func download(productID: String, transactionID: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        try await store.download(device: name, productID: productID, transactionID: transactionID, storage: storage)
    }
}
