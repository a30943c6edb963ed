import Foundation
import GRDB

/// The ledger on SQLite through GRDB: one file in WAL mode, commits durable
/// (`synchronous = FULL`). The default database; for one server process (or
/// several on one machine, which wait for each other's writes).
public struct SQLiteLedgerStorage: LedgerStorage {
    private let ledger: SQLLedger

    /// Opens (creating if needed) the database at `path`. Call ``migrate()`` before anything else.
    public init(path: String) throws {
        guard !path.isEmpty else { throw StorageError.configuration("the SQLite database's path is empty; write sqlite:PATH") }
        var configuration = Configuration()
        // Another process holding the write lock: wait for it rather than fail at once.
        configuration.busyMode = .timeout(10)
        // Transactions span several awaits (SQLiteDatabase takes turns through a SerialGate), so GRDB
        // must allow a transaction to stay open between two of its accesses.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            ledger = SQLLedger(database: SQLiteDatabase(pool: pool))
        } catch {
            throw StorageError.configuration("cannot open the SQLite database at '\(path)': \(error)")
        }
    }

    public func migrate() async throws { try await ledger.migrate() }
    public func schemaVersion() async throws -> Int { try await ledger.schemaVersion() }
    public func register(user: String, appAccountToken: String) async throws -> UserAccount {
        try await ledger.register(user: user, appAccountToken: appAccountToken)
    }
    public func account(appAccountToken: String) async throws -> UserAccount? { try await ledger.account(appAccountToken: appAccountToken) }
    public func account(user: String) async throws -> UserAccount? { try await ledger.account(user: user) }
    public func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite { try await ledger.keep(transaction) }
    public func transactions(of user: String) async throws -> [StoredTransaction] { try await ledger.transactions(of: user) }
    public func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction? {
        try await ledger.lookUpTransaction(transactionID)
    }
    public func update(_ subscription: SubscriptionState) async throws -> Bool { try await ledger.update(subscription) }
    public func subscriptions(of user: String) async throws -> [SubscriptionState] { try await ledger.subscriptions(of: user) }
    public func apply(_ grant: Grant) async throws -> Bool { try await ledger.apply(grant) }
    public func balances(of user: String) async throws -> [String: Int] { try await ledger.balances(of: user) }
    public func spend(_ request: SpendRequest) async throws -> SpendOutcome { try await ledger.spend(request) }
    public func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite { try await ledger.put(record, for: user) }
    public func records(of user: String) async throws -> [ServerRecord] { try await ledger.records(of: user) }
    public func receive(_ notification: StoredNotification) async throws -> NotificationReceipt { try await ledger.receive(notification) }
    public func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool {
        try await ledger.process(notificationUUID: notificationUUID, effects: effects, at: date)
    }
    public func notifications(limit: Int) async throws -> [StoredNotification] { try await ledger.notifications(limit: limit) }
    public func consumptionRequests() async throws -> [ConsumptionRequest] { try await ledger.consumptionRequests() }
}
