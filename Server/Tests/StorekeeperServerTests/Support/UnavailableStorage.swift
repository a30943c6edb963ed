import StorekeeperServerStorage

/// A storage whose database never answers: every call is ``StorageError/transient(_:)``,
/// naming an internal detail that an answer must not show.
struct UnavailableStorage: LedgerStorage {
    static let detail = "connection refused to 10.0.0.7:5432 as storekeeper"
    private func fail<T>() throws -> T { throw StorageError.transient(Self.detail) }

    func migrate() async throws { try fail() as Void }
    func schemaVersion() async throws -> Int { try fail() }
    func register(user: String, appAccountToken: String) async throws -> UserAccount { try fail() }
    func account(appAccountToken: String) async throws -> UserAccount? { try fail() }
    func account(user: String) async throws -> UserAccount? { try fail() }
    func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite { try fail() }
    func transactions(of user: String) async throws -> [StoredTransaction] { try fail() }
    func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction? { try fail() }
    func update(_ subscription: SubscriptionState) async throws -> Bool { try fail() }
    func subscriptions(of user: String) async throws -> [SubscriptionState] { try fail() }
    func apply(_ grant: Grant) async throws -> Bool { try fail() }
    func balances(of user: String) async throws -> [String: Int] { try fail() }
    func spend(_ request: SpendRequest) async throws -> SpendOutcome { try fail() }
    func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite { try fail() }
    func records(of user: String) async throws -> [ServerRecord] { try fail() }
    func receive(_ notification: StoredNotification) async throws -> NotificationReceipt { try fail() }
    func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool { try fail() }
    func notifications(limit: Int) async throws -> [StoredNotification] { try fail() }
    func consumptionRequests() async throws -> [ConsumptionRequest] { try fail() }
}
