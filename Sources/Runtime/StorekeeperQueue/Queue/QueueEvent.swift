public import Foundation
public import StorekeeperCore
public import StorekeeperRuntime

/// What the queue tells its observers, in order. Events are delivered at
/// least once: an event sent just before a crash may be sent again after
/// the next launch, never not at all.
public enum QueueEvent: Sendable, Hashable {
    /// The store reported a transaction in a new state; its plan runs now.
    case updated(StoreTransaction)
    /// A `notify` step: show the transaction's state (a spinner while
    /// purchasing, the new content once purchased).
    case notify(TransactionInfo)
    /// A `present-error` step: show the store's error to the user.
    case presentError(TransactionInfo, StoreErrorCode)
    /// A step failed. With a retry date, for a passing reason (it runs again
    /// then); without one, for good: the transaction stays unfinished and is
    /// tried again at the next launch (or after `retryNow()`). In a `failed`
    /// situation the plan goes on to `finish` regardless.
    case stepFailed(TransactionInfo, step: String, failure: StepFailure, retryAt: Date?)
    /// The transaction was finished: the store will not deliver it again.
    case removed(TransactionInfo)
    /// An update was not dispatched, and why.
    case ignored(StoreTransaction, IgnoredUpdate)
    /// A restore delivered every transaction it had.
    case restoreFinished
    /// A restore failed.
    case restoreFailed(StoreErrorCode)
    /// The journal could not be written; nothing of the batch was committed
    /// and it is tried again.
    case journalFailed(JournalError)
    /// A purchase was refunded or revoked; what it delivered is gone. Told
    /// once, after the queue first journals the revocation and publishes the
    /// entitlements, so that an observer reading them sees the change; a
    /// crash in between loses the event, never the removal.
    case revoked(StoreRevocation)
    /// A purchase the user started outside the app (``StoreEvent/promoted(_:)``)
    /// was not bought: its payment fails the checks a payment the app adds
    /// must pass (a product the catalog does not sell, say), which say why.
    case promotedPurchaseRefused(PromotedPurchase, PaymentError)
}

/// Why an update was not dispatched.
public enum IgnoredUpdate: Sendable, Hashable {
    /// The same transaction in the same situation was handled already: no step runs twice.
    case duplicate
    /// The transaction is already in a later state (updates arrived out of order).
    case outOfOrder
    /// The transaction already ended in another way (`purchased` after `failed`, say).
    case conflicting
    /// The transaction was revoked (refunded, or family sharing stopped): it
    /// delivers nothing. One the store still holds unfinished is finished.
    case revoked
}

/// Something told of the queue's events. Registered at start, before any
/// transaction can arrive.
public protocol TransactionObserver: Sendable {
    /// Handles one event. The queue waits for it before going on.
    func queue(_ event: QueueEvent) async
}

/// An observer made of a closure.
package struct ClosureObserver: TransactionObserver {
    private let body: @Sendable (QueueEvent) async -> Void
    /// Wraps a closure.
    package init(_ body: @escaping @Sendable (QueueEvent) async -> Void) { self.body = body }
    /// Calls the closure.
    package func queue(_ event: QueueEvent) async { await body(event) }
}
