import StorekeeperServerStorage

/// A storage whose next `process` calls fail as a database that cannot answer now does
/// (`StorageError.transient`); everything else goes to the storage it wraps.
final class FlakyStorage: LedgerStorage {
    let base: any LedgerStorage
    private let failures: Failures

    /// How many `process` calls are still to fail.
    private actor Failures {
        var left: Int
        init(_ left: Int) { self.left = left }

        func takeOne() -> Bool {
            defer { left = max(0, left - 1) }
            return left > 0
        }
    }

    init(_ base: any LedgerStorage, failingProcessTimes failures: Int) {
        self.base = base
        self.failures = Failures(failures)
    }

    func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool {
        if await failures.takeOne() { throw StorageError.transient("PostgreSQL 40001 serialization failure, 5 tries") }
        return try await base.process(notificationUUID: notificationUUID, effects: effects, at: date)
    }

    func migrate() async throws { try await base.migrate() }
    func schemaVersion() async throws -> Int { try await base.schemaVersion() }
    func register(user: String, appAccountToken: String) async throws -> UserAccount {
        try await base.register(user: user, appAccountToken: appAccountToken)
    }
    func account(appAccountToken: String) async throws -> UserAccount? { try await base.account(appAccountToken: appAccountToken) }
    func account(user: String) async throws -> UserAccount? { try await base.account(user: user) }
    func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite { try await base.keep(transaction) }
    func transactions(of user: String) async throws -> [StoredTransaction] { try await base.transactions(of: user) }
    func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction? { try await base.lookUpTransaction(transactionID) }
    func transfer(transactionID: String, from: String, to: String) async throws -> Bool {
        try await base.transfer(transactionID: transactionID, from: from, to: to)
    }
    func update(_ subscription: SubscriptionState) async throws -> Bool { try await base.update(subscription) }
    func subscriptions(of user: String) async throws -> [SubscriptionState] { try await base.subscriptions(of: user) }
    func apply(_ grant: Grant) async throws -> Bool { try await base.apply(grant) }
    func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool { try await base.revokeGrants(revocation) }
    func reinstateGrants(of transactionID: String) async throws -> Bool { try await base.reinstateGrants(of: transactionID) }
    func balances(of user: String) async throws -> [String: Int] { try await base.balances(of: user) }
    func spend(_ request: SpendRequest) async throws -> SpendOutcome { try await base.spend(request) }
    func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite { try await base.put(record, for: user) }
    func records(of user: String) async throws -> [ServerRecord] { try await base.records(of: user) }
    func receive(_ notification: StoredNotification) async throws -> NotificationReceipt { try await base.receive(notification) }
    func notifications(limit: Int) async throws -> [StoredNotification] { try await base.notifications(limit: limit) }
    func consumptionRequests() async throws -> [ConsumptionRequest] { try await base.consumptionRequests() }
}
