public import StorekeeperRuntime

/// The app receipt, as StoreKit 1 keeps it: the file at
/// `Bundle.main.appStoreReceiptURL`, and `SKReceiptRefreshRequest` to ask
/// the App Store for a new copy.
public protocol StoreKit1AppReceipt: Sendable {
    /// The receipt's bytes (PKCS #7, DER), or nil when there is no receipt
    /// on the device (a fresh install from Xcode or TestFlight, say).
    func receiptBytes() -> [UInt8]?

    /// Asks the App Store for the latest receipt and waits until it is on
    /// the device: `SKReceiptRefreshRequest(receiptProperties: nil).start()`.
    /// It may ask the user to sign in. Throws a transient `StepFailure` when
    /// the request fails (`request(_:didFailWithError:)`).
    func refresh() async throws(StepFailure)
}
