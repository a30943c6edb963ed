import Logging
import PostgresNIO

/// The ledger on PostgreSQL through postgres-nio, for several server
/// instances sharing one database: every state is in the database, and
/// every write is idempotent there.
///
/// The storage runs its client's connection pool in a task of its own;
/// ``close()`` ends it.
public struct PostgresLedgerStorage: LedgerStorage {
    private let ledger: SQLLedger
    private let running: Task<Void, Never>

    /// Connects to `url` (`postgres://USER:PASSWORD@HOST[:PORT]/DATABASE[?sslmode=…]`) with at most
    /// `maximumConnections`; a transaction that meets a serialization failure or a deadlock is tried
    /// `attempts` times in all. With `schema` (letters, digits and `_`, starting with a letter or `_`), the
    /// ledger's tables live in that schema of the database, created by ``migrate()``; without, in `public`.
    /// Call ``migrate()`` before anything else.
    public init(
        url: String, schema: String? = nil, maximumConnections: Int = 20, attempts: Int = 5,
        logger: Logger = Logger(label: "storekeeper.storage")
    ) throws {
        if let schema { try PostgresDatabase.checkSchemaName(schema) }
        guard maximumConnections > 0 else { throw StorageError.configuration("maximumConnections is \(maximumConnections); it must be positive") }
        guard attempts > 0 else { throw StorageError.configuration("attempts is \(attempts); it must be positive") }
        var configuration = try PostgresURL.configuration(url)
        configuration.options.maximumConnections = maximumConnections
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        running = Task { await client.run() }
        ledger = SQLLedger(database: PostgresDatabase(client: client, logger: logger, attempts: attempts, schema: schema))
    }

    /// Closes the connection pool; the storage answers nothing after.
    public func close() async {
        running.cancel()
        await running.value
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
