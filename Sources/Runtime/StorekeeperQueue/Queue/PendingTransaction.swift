public import Foundation

/// A transaction not done, as ``TransactionQueue/pending()`` reports it.
public struct PendingTransaction: Sendable, Hashable {
    /// The transaction.
    public let transaction: StoreTransaction
    /// Running, waiting for a retry, or halted.
    public let status: DispatchStatus
    /// The step it is at.
    public let step: String?
    /// Failed attempts of that step.
    public let attempts: Int
    /// When it runs again, if waiting.
    public let retryAt: Date?
    /// Why its step failed last.
    public let lastError: String?
}
