public import Foundation
public import StorekeeperCore

/// One line of a simulation's trace: what the store, the queue, the plans
/// and the scenario did, in order.
public enum TraceEvent: Sendable, Hashable {
    /// A scenario action starts.
    case action(index: Int, line: Int, text: String)
    /// The app started on a device; `replayed` transactions were left by the journal.
    case launched(device: String)
    /// The app stopped normally.
    case quit(device: String)
    /// The app died; `point` says where (nil: between actions).
    case crashed(device: String, point: String?)
    /// The store reported a transaction to the app.
    case store(TransactionReport)
    /// The plan chosen for an update: its steps, and the custom rule that made it, if any.
    case plan(transactionID: String, situation: String, steps: [String], rule: String?)
    /// A step ran: nil when it succeeded, else why it failed and whether it waits for a retry.
    case step(transactionID: String, step: String, failure: String?, willRetry: Bool)
    /// The store finished a transaction.
    case finished(transactionID: String)
    /// The queue did not dispatch an update, and why.
    case ignored(transactionID: String, reason: String)
    /// The app's UI was told something (`notify PRODUCT STATE`, `error PRODUCT CODE`, ...).
    case told(String)
    /// A download's progress.
    case download(DownloadReport)
    /// Something the store did that is not a transaction (a receipt refresh, a lapse, an expired request).
    case note(String)
    /// The simulated clock moved.
    case clock(Date)
    /// An expectation was checked.
    case expectation(ExpectationResult)
}

/// A transaction as the store reported it, for the trace.
public struct TransactionReport: Sendable, Hashable {
    /// The device it went to.
    public var device: String
    /// Its identifier.
    public var id: String
    /// The product.
    public var productID: String
    /// Its state.
    public var state: TransactionState
    /// The store's error, when failed.
    public var error: StoreErrorCode?
    /// The transaction it restores or renews.
    public var originalID: String?
    /// Whether the account was charged (purchases only).
    public var charged: Bool?
    /// Why it exists, when not a plain purchase: `renewal`, `restore`, `redelivered`.
    public var note: String?
}

/// A download's state at one moment.
public struct DownloadReport: Sendable, Hashable {
    /// The product whose content it is.
    public var productID: String
    /// The transaction it belongs to.
    public var transactionID: String
    /// Its state.
    public var state: DownloadState
    /// How much is on the device, 0 to 100.
    public var percent: Int
    /// Seconds left at the simulated speed, while active.
    public var secondsRemaining: Int?
    /// Why it stopped, when failed.
    public var reason: String?
}

/// The outcome of one expectation.
public struct ExpectationResult: Sendable, Hashable {
    /// Where the expectation's key is: `file:line:column`.
    public var location: String
    /// The key (`balances`, `told`, ...).
    public var key: String
    /// Whether it held.
    public var passed: Bool
    /// What was expected and what was found, when it failed.
    public var reason: String?

    /// A result.
    package init(location: String, key: String, passed: Bool, reason: String?) {
        self.location = location
        self.key = key
        self.passed = passed
        self.reason = reason
    }
}
