/// How purchases are restored.
public enum RestorePolicy: String, CaseIterable, Hashable, Sendable {
    /// Refresh the receipt and deliver what it lists; no new transactions.
    case receiptRefresh = "receipt-refresh"
    /// Replay completed transactions (needed to download Apple-hosted content again).
    case restoreTransactions = "restore-transactions"
    /// Ask the app's server.
    case server
    /// Read iCloud's synced record.
    case icloud
    /// Not restored.
    case none
}
