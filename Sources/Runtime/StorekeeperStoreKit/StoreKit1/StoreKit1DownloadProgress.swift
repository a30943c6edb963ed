import Foundation

/// A change in an Apple-hosted download, for the interface: what
/// `paymentQueue(_:updatedDownloads:)` reported, with the transaction and
/// product it belongs to.
public struct StoreKit1DownloadProgress: Sendable, Hashable {
    /// The transaction the download came with.
    public var transactionID: String
    /// The product.
    public var productID: String
    /// The content's identifier in App Store Connect.
    package var contentIdentifier: String
    /// The download's state.
    public var state: StoreKit1DownloadState
    /// 0 to 1: for a progress bar, never to decide whether it is done.
    public var progress: Float
    /// Seconds left, when StoreKit knows.
    package var timeRemaining: Double?
    /// Why it failed, for a failed download.
    public var error: StoreKit1Error?

    /// Describes a change.
    package init(transactionID: String, productID: String, contentIdentifier: String, state: StoreKit1DownloadState,
                progress: Float, timeRemaining: Double? = nil, error: StoreKit1Error? = nil) {
        self.transactionID = transactionID
        self.productID = productID
        self.contentIdentifier = contentIdentifier
        self.state = state
        self.progress = progress
        self.timeRemaining = timeRemaining
        self.error = error
    }
}
