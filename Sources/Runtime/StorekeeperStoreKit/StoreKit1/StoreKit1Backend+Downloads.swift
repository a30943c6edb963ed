import Foundation
public import StorekeeperCore
public import StorekeeperRuntime

/// Apple-hosted content: the `download` step's downloader
/// (`EngineServices.hostedContent`), the user's controls, and progress.
extension StoreKit1Backend: HostedContentDownloader {
    /// The `download` step: starts the transaction's `SKDownload`s
    /// (`start(_:)`) and waits until StoreKit reports them all finished,
    /// then returns where the content is (the first download's
    /// `contentURL`; moved below `documentsFolder` for `documents`
    /// storage). The guide's order holds: the plan downloads before it
    /// finishes, and StoreKit drops a finished transaction's downloads.
    ///
    /// Fails transiently (the queue retries with backoff) when the download
    /// fails (no network, no space: it starts again at the next attempt) or
    /// is paused; permanently (the plan halts until the next launch or
    /// `retryNow()`, which start it over) when the user cancelled it, or
    /// when the transaction came with no hosted content.
    public func download(productID: String, transactionID: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        let kept = withState { $0.registry.transaction(transactionID) }
        // After a relaunch the queue may replay this step before StoreKit delivered the transaction.
        guard let transaction = kept ?? paymentQueue.unfinishedTransactions.first(where: {
            StoreKit1TransactionRegistry.completedID(of: $0) == transactionID
        }) else {
            throw .transient("StoreKit holds no unfinished transaction \(transactionID) of \(productID) yet "
                             + "(it delivers unfinished transactions shortly after launch)")
        }
        let downloads = transaction.storeDownloads
        guard !downloads.isEmpty else {
            throw .permanent("transaction \(transactionID) of \(productID) came with no Apple-hosted content "
                             + "(SKPaymentTransaction.downloads is empty): is the content uploaded in App Store Connect?")
        }
        let outcome: Result<URL, StepFailure> = await withCheckedContinuation { waiter in
            let attempt = withState {
                $0.downloads.attempt(transactionID: transactionID, productID: productID, downloads: downloads, waiter: waiter)
            }
            switch attempt {
            case .done(let url): waiter.resume(returning: .success(url))
            case .failed(let failure): waiter.resume(returning: .failure(failure))
            case .wait(let start, let resume):
                // Outside the lock: StoreKit (or a fake) may report progress from within.
                if !start.isEmpty { paymentQueue.startDownloads(start) }
                if !resume.isEmpty { paymentQueue.resumeDownloads(resume) }
            }
        }
        return try place(try outcome.get(), productID: productID, storage: storage)
    }

    /// Where the content is kept: StoreKit's folder (Caches on iOS), or, for
    /// `documents` storage, `StoreKit/<product>` below ``documentsFolder``,
    /// excluded from backups (the guide: content that must not be purged
    /// lives in Documents and is not backed up, since it can be downloaded again).
    func place(_ url: URL, productID: String, storage: ContentStorage?) throws(StepFailure) -> String {
        guard storage == .documents, let documentsFolder else { return url.path }
        var target = documentsFolder.appendingPathComponent("StoreKit", isDirectory: true).appendingPathComponent(productID, isDirectory: true)
        do {
            let files = FileManager.default
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if files.fileExists(atPath: target.path) { try files.removeItem(at: target) }
            try files.moveItem(at: url, to: target)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try target.setResourceValues(values)
        } catch {
            throw .transient("could not move the content of \(productID) from \(url.path) to \(target.path): \(error)")
        }
        return target.path
    }

    /// `paymentQueue(_:updatedDownloads:)`: progress for the interface, and
    /// the end of a download the `download` step waits on.
    public func updatedDownloads(_ downloads: [any StoreKit1Download]) {
        withState { $0.downloads.updated(downloads) }
    }

    /// Pauses the downloads of a transaction (`pause(_:)`), for the user. The
    /// `download` step fails transiently until ``resumeDownloads(transactionID:)``.
    public func pauseDownloads(transactionID: String) {
        let downloads = withState { $0.downloads.userPaused(transactionID) }
        if !downloads.isEmpty { paymentQueue.pauseDownloads(downloads) }
    }

    /// Resumes the downloads of a transaction (`resume(_:)`). Call the
    /// queue's `retryNow()` after it, so that the `download` step waits on
    /// them at once rather than at its next retry.
    public func resumeDownloads(transactionID: String) {
        let downloads = withState { $0.downloads.userResumed(transactionID) }
        if !downloads.isEmpty { paymentQueue.resumeDownloads(downloads) }
    }

    /// Cancels the downloads of a transaction (`cancel(_:)`), for the user:
    /// the `download` step fails for good (the transaction stays unfinished)
    /// and starts over at the next launch or `retryNow()`.
    public func cancelDownloads(transactionID: String) {
        let downloads = withState { $0.downloads.userCancelled(transactionID) }
        if !downloads.isEmpty { paymentQueue.cancelDownloads(downloads) }
    }

    /// Every change StoreKit reports in a download the backend started, from
    /// now on. The stream ends when the subscriber stops iterating.
    public func downloadProgress() -> AsyncStream<StoreKit1DownloadProgress> {
        // Not AsyncStream.makeStream, which needs iOS 17: the build closure runs in init.
        var made: AsyncStream<StoreKit1DownloadProgress>.Continuation?
        let stream = AsyncStream<StoreKit1DownloadProgress>(bufferingPolicy: .bufferingNewest(256)) { made = $0 }
        guard let continuation = made else { return stream }
        let id = UUID()
        withState { $0.downloads.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.withState { _ = $0.downloads.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
