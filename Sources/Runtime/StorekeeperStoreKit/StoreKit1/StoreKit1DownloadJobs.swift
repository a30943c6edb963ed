import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// The Apple-hosted downloads the backend started, by transaction: the
/// `download` step waiting on each, what the user asked (pause, cancel),
/// and who is told of progress.
struct StoreKit1DownloadJobs {
    struct Job {
        var productID: String
        var downloads: [any StoreKit1Download]
        /// The `download` step waiting for them to end.
        var waiter: CheckedContinuation<Result<URL, StepFailure>, Never>?
        /// The user paused them: the step does not start them again until resumed.
        var pausedByUser = false
        /// The user cancelled them: the next attempt fails, the one after starts over.
        var cancelledByUser = false
    }

    private(set) var jobs: [String: Job] = [:]
    /// The transaction of each download object kept in `jobs`.
    private var owners: [ObjectIdentifier: String] = [:]
    var subscribers: [UUID: AsyncStream<StoreKit1DownloadProgress>.Continuation] = [:]

    /// What the step does on an attempt.
    enum Attempt {
        case done(URL)
        case failed(StepFailure)
        /// Wait: start these (waiting, failed, cancelled), resume these (paused by the system).
        case wait(start: [any StoreKit1Download], resume: [any StoreKit1Download])
    }

    /// An attempt of the `download` step for a transaction's downloads; a
    /// `wait` keeps `waiter` to resume when they end.
    mutating func attempt(transactionID: String, productID: String, downloads: [any StoreKit1Download],
                          waiter: CheckedContinuation<Result<URL, StepFailure>, Never>) -> Attempt {
        var job = jobs[transactionID] ?? Job(productID: productID, downloads: downloads)
        job.downloads = downloads
        for download in downloads { owners[ObjectIdentifier(download)] = transactionID }
        defer { jobs[transactionID] = job }
        if job.cancelledByUser {
            job.cancelledByUser = false
            return .failed(Self.cancelled(productID))
        }
        if job.pausedByUser {
            return .failed(.transient("the user paused the download of \(productID) at \(Self.percent(downloads))%; "
                                      + "it goes on once resumed"))
        }
        if downloads.allSatisfy({ $0.downloadPhase == .finished }) {
            guard let url = downloads.first?.downloadContentURL else {
                return .failed(.permanent("StoreKit finished the download of \(productID) without a content URL"))
            }
            return .done(url)
        }
        // One step waits per transaction; an earlier one still waiting gives way.
        job.waiter?.resume(returning: .failure(.transient("a newer attempt to download \(productID) took over")))
        job.waiter = waiter
        let start = downloads.filter { [.waiting, .failed, .cancelled].contains($0.downloadPhase) }
        let resume = downloads.filter { $0.downloadPhase == .paused }
        return .wait(start: start, resume: resume)
    }

    /// StoreKit reported downloads: tells subscribers, and ends the wait of
    /// a step whose downloads all finished, or one failed, was paused or cancelled.
    mutating func updated(_ downloads: [any StoreKit1Download]) {
        var touched: [String] = []
        for download in downloads {
            guard let transactionID = owners[ObjectIdentifier(download)], let job = jobs[transactionID] else { continue }
            let progress = StoreKit1DownloadProgress(
                transactionID: transactionID, productID: job.productID, contentIdentifier: download.downloadContentIdentifier,
                state: download.downloadPhase, progress: download.downloadProgress, timeRemaining: download.downloadTimeRemaining,
                error: download.downloadPhase == .failed ? download.downloadError : nil)
            for subscriber in subscribers.values { subscriber.yield(progress) }
            if !touched.contains(transactionID) { touched.append(transactionID) }
        }
        for transactionID in touched { settle(transactionID) }
    }

    /// Ends the wait on a transaction's downloads if they reached an end.
    private mutating func settle(_ transactionID: String) {
        guard var job = jobs[transactionID], let waiter = job.waiter else { return }
        let phases = job.downloads.map(\.downloadPhase)
        let outcome: Result<URL, StepFailure>
        if phases.contains(.cancelled) {
            job.cancelledByUser = false
            outcome = .failure(Self.cancelled(job.productID))
        } else if let failed = job.downloads.first(where: { $0.downloadPhase == .failed }) {
            let reason = failed.downloadError.map { ": \($0.message.isEmpty ? "\($0.domain) \($0.code)" : $0.message)" } ?? ""
            outcome = .failure(.transient("the download of \(job.productID) stopped at \(Self.percent(job.downloads))%\(reason); "
                                          + "it starts again at the next attempt"))
        } else if phases.contains(.paused) {
            outcome = .failure(.transient("the download of \(job.productID) is paused at \(Self.percent(job.downloads))%; it goes on once resumed"))
        } else if phases.allSatisfy({ $0 == .finished }) {
            if let url = job.downloads.first?.downloadContentURL {
                outcome = .success(url)
            } else {
                outcome = .failure(.permanent("StoreKit finished the download of \(job.productID) without a content URL"))
            }
        } else {
            return
        }
        job.waiter = nil
        jobs[transactionID] = job
        waiter.resume(returning: outcome)
    }

    /// The transaction was finished: its downloads are gone; a step still waiting fails.
    mutating func finished(_ transactionID: String) {
        guard let job = jobs.removeValue(forKey: transactionID) else { return }
        for download in job.downloads { owners[ObjectIdentifier(download)] = nil }
        job.waiter?.resume(returning: .failure(.permanent(
            "transaction \(transactionID) was finished before its content of \(job.productID) downloaded: StoreKit drops a finished transaction's downloads")))
    }

    /// Notes what the user asked and returns the downloads to pass to StoreKit.
    mutating func userPaused(_ transactionID: String) -> [any StoreKit1Download] {
        jobs[transactionID]?.pausedByUser = true
        return jobs[transactionID]?.downloads ?? []
    }

    mutating func userResumed(_ transactionID: String) -> [any StoreKit1Download] {
        jobs[transactionID]?.pausedByUser = false
        return jobs[transactionID]?.downloads ?? []
    }

    mutating func userCancelled(_ transactionID: String) -> [any StoreKit1Download] {
        guard jobs[transactionID] != nil else { return [] }
        jobs[transactionID]?.cancelledByUser = true
        jobs[transactionID]?.pausedByUser = false
        return jobs[transactionID]?.downloads ?? []
    }

    static func cancelled(_ productID: String) -> StepFailure {
        .permanent("the user cancelled the download of \(productID); it starts again at the next launch or on retryNow()")
    }

    /// The downloads' mean progress, as a whole percentage.
    static func percent(_ downloads: [any StoreKit1Download]) -> Int {
        guard !downloads.isEmpty else { return 0 }
        let mean = downloads.map { Double(min(1, max(0, $0.downloadProgress))) }.reduce(0, +) / Double(downloads.count)
        return Int((mean * 100).rounded(.down))
    }
}
