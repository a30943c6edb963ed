public import StorekeeperServerStorage

/// A storage whose database fails as one that cannot answer now does
/// (``StorageError/transient(_:)``, naming an internal detail that no answer
/// may show): every call, or only the next calls of one operation, the rest
/// going to the storage it wraps. The one double of the server's tests for a
/// database in trouble.
public struct FaultyStorage: LedgerStorage {
    /// The detail each failure carries: what a server must log and never answer.
    public static let detail = "connection refused to 10.0.0.7:5432 as storekeeper"

    private let base: (any LedgerStorage)?
    private let faults: Faults

    /// How many calls of which operation are still to fail; nil fails every call.
    private actor Faults {
        let operation: String?
        var left: Int
        init(operation: String?, left: Int) {
            self.operation = operation
            self.left = left
        }

        func fails(_ called: String) -> Bool {
            guard let operation else { return true }
            guard called == operation, left > 0 else { return false }
            left -= 1
            return true
        }
    }

    /// A storage whose every call fails.
    public static var unavailable: FaultyStorage { FaultyStorage(base: nil, faults: Faults(operation: nil, left: 0)) }

    /// `base`, except that the next `times` calls of `operation` (a `LedgerStorage` method's name, such as
    /// `"process"`) fail.
    public init(_ base: any LedgerStorage, failing operation: String, times: Int) {
        self.init(base: base, faults: Faults(operation: operation, left: times))
    }

    private init(base: (any LedgerStorage)?, faults: Faults) {
        self.base = base
        self.faults = faults
    }

    private func run<T>(_ operation: String, _ body: (any LedgerStorage) async throws -> T) async throws -> T {
        guard let base, await !faults.fails(operation) else { throw StorageError.transient(Self.detail) }
        return try await body(base)
    }

    public func migrate() async throws { try await run("migrate") { try await $0.migrate() } }
    public func schemaVersion() async throws -> Int { try await run("schemaVersion") { try await $0.schemaVersion() } }
    public func probe() async throws -> Int { try await run("probe") { try await $0.probe() } }
    public func register(user: String, appAccountToken: String) async throws -> UserAccount { try await run("register") { try await $0.register(user: user, appAccountToken: appAccountToken) } }
    public func account(appAccountToken: String) async throws -> UserAccount? { try await run("account") { try await $0.account(appAccountToken: appAccountToken) } }
    public func account(user: String) async throws -> UserAccount? { try await run("account") { try await $0.account(user: user) } }
    public func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite { try await run("keep") { try await $0.keep(transaction) } }
    public func keep(_ effects: [LedgerEffect], for account: UserAccount) async throws -> TransactionWrite { try await run("keep") { try await $0.keep(effects, for: account) } }
    public func transactions(of user: String) async throws -> [StoredTransaction] { try await run("transactions") { try await $0.transactions(of: user) } }
    public func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction? { try await run("lookUpTransaction") { try await $0.lookUpTransaction(transactionID) } }
    public func holder(of transactionID: String, originalTransactionID: String, ownership: String) async throws -> String? { try await run("holder") { try await $0.holder(of: transactionID, originalTransactionID: originalTransactionID, ownership: ownership) } }
    public func toldTransactions(for user: String, appAccountToken: String) async throws -> [StoredTransaction] { try await run("toldTransactions") { try await $0.toldTransactions(for: user, appAccountToken: appAccountToken) } }
    public func transfer(originalTransactionID: String, from: String, to: String) async throws -> Bool { try await run("transfer") { try await $0.transfer(originalTransactionID: originalTransactionID, from: from, to: to) } }
    public func update(_ renewal: SubscriptionRenewal) async throws -> Bool { try await run("update") { try await $0.update(renewal) } }
    public func renewals(of user: String) async throws -> [SubscriptionRenewal] { try await run("renewals") { try await $0.renewals(of: user) } }
    public func apply(_ grant: Grant) async throws -> Bool { try await run("apply") { try await $0.apply(grant) } }
    public func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool { try await run("revokeGrants") { try await $0.revokeGrants(revocation) } }
    public func reinstateGrants(of transactionID: String) async throws -> Bool { try await run("reinstateGrants") { try await $0.reinstateGrants(of: transactionID) } }
    public func balances(of user: String, environment: String) async throws -> [String: Int] { try await run("balances") { try await $0.balances(of: user, environment: environment) } }
    public func spend(_ request: SpendRequest) async throws -> SpendOutcome { try await run("spend") { try await $0.spend(request) } }
    public func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite { try await run("put") { try await $0.put(record, for: user) } }
    public func records(of user: String) async throws -> [ServerRecord] { try await run("records") { try await $0.records(of: user) } }
    public func recordCount(of user: String, holding transactionID: String) async throws -> (count: Int, holds: Bool) {
        try await run("recordCount") { try await $0.recordCount(of: user, holding: transactionID) }
    }
    public func receive(_ notification: StoredNotification) async throws -> NotificationReceipt { try await run("receive") { try await $0.receive(notification) } }
    public func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool { try await run("process") { try await $0.process(notificationUUID: notificationUUID, effects: effects, at: date) } }
    public func notifications(limit: Int) async throws -> [StoredNotification] { try await run("notifications") { try await $0.notifications(limit: limit) } }
    public func consumptionRequests() async throws -> [ConsumptionRequest] { try await run("consumptionRequests") { try await $0.consumptionRequests() } }
}
