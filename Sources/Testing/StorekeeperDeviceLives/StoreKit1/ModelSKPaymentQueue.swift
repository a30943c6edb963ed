public import StorekeeperRuntime
public import StorekeeperStoreKit

/// `SKPaymentQueue.default()` in one launch of the app on a ``ModelStoreKit1Device``: what one process's
/// StoreKit 1 backend talks to. A call from a launch that is over (the backend of a crashed or relaunched app)
/// reaches nothing, as a process that ended reaches nothing.
public final class ModelSKPaymentQueue: StoreKit1PaymentQueue, @unchecked Sendable {
    // @unchecked: both fields are constants; the device guards its own state.
    /// The device whose StoreKit this is.
    public let device: ModelStoreKit1Device
    /// Which launch of the app it serves.
    public let launch: Int

    init(device: ModelStoreKit1Device, launch: Int) {
        self.device = device
        self.launch = launch
    }

    public func addPayment(_ payment: StoreKit1Payment) { device.addPayment(payment, launch: launch) }
    public func finishStoreTransaction(_ transaction: any StoreKit1Transaction) { device.finish(transaction, launch: launch) }
    public func restoreStoreTransactions(applicationUsername: String?) { device.restore(launch: launch) }
    public func addStoreObserver(_ observer: AnyObject) {}
    public func removeStoreObserver(_ observer: AnyObject) { device.observerRemoved(launch: launch) }
    public var unfinishedTransactions: [any StoreKit1Transaction] { device.unfinishedObjects(launch: launch) }
    // The model's catalog has no Apple-hosted content: no download is ever made.
    public func startDownloads(_ downloads: [any StoreKit1Download]) {}
    public func pauseDownloads(_ downloads: [any StoreKit1Download]) {}
    public func resumeDownloads(_ downloads: [any StoreKit1Download]) {}
    public func cancelDownloads(_ downloads: [any StoreKit1Download]) {}
}

/// The app receipt on a ``ModelStoreKit1Device``: the copy StoreKit last wrote to the device, and
/// `SKReceiptRefreshRequest`, which fetches the App Store's receipt of now.
public struct ModelAppReceipt: StoreKit1AppReceipt {
    /// The device.
    public let device: ModelStoreKit1Device

    public func receiptBytes() -> [UInt8]? { device.receiptOnDevice() }

    public func refresh() async throws(StepFailure) { device.refreshReceipt() }
}
