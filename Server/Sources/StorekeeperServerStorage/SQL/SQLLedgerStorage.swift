import Foundation

/// The ledger on a SQL database: SQLite through GRDB (``sqlite(path:)``,
/// the default) or PostgreSQL through postgres-nio (``postgres(url:schema:maximumConnections:attempts:logger:)``).
///
/// The statements are written once over ``SQLDatabase``, so both databases
/// run the same SQL with the same semantics; only opening and closing differ.
public struct SQLLedgerStorage: LedgerStorage {
    let database: any SQLDatabase
    /// Ends what the database runs in the background (PostgreSQL's connection pool); nil for SQLite.
    let closing: (@Sendable () async -> Void)?

    init(database: any SQLDatabase, closing: (@Sendable () async -> Void)? = nil) {
        self.database = database
        self.closing = closing
    }

    /// Closes the database; the storage answers nothing after.
    public func close() async { await closing?() }

    public func migrate() async throws {
        try await database.withMigrationLock { try await LedgerSchema.apply(LedgerSchema.migrations, in: $0) }
    }

    public func schemaVersion() async throws -> Int {
        try await database.withMigrationLock { session in
            try await session.run(LedgerSchema.versionTable)
            return try await LedgerSchema.currentVersion(in: session)
        }
    }

    // MARK: Users

    public func register(user: String, appAccountToken: String) async throws -> UserAccount {
        try Self.require(!user.isEmpty, "the user id is empty")
        try Self.require(!appAccountToken.isEmpty, "the appAccountToken is empty")
        return try await database.transaction { session in
            try await session.run(
                "INSERT INTO users (user_id, app_account_token, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                .text(user), .text(appAccountToken), .real(Date().timeIntervalSince1970))
            guard let kept = try await Self.account(where: "user_id", is: user, in: session) else {
                throw StorageError.invalidArgument("the appAccountToken '\(appAccountToken)' is another user's; user '\(user)' was not registered")
            }
            return kept
        }
    }

    public func account(appAccountToken: String) async throws -> UserAccount? {
        try await database.transaction { try await Self.account(where: "app_account_token", is: appAccountToken, in: $0) }
    }

    public func account(user: String) async throws -> UserAccount? {
        try await database.transaction { try await Self.account(where: "user_id", is: user, in: $0) }
    }

    private static func account(where column: String, is value: String, in session: any SQLSession) async throws -> UserAccount? {
        let rows = try await session.run("SELECT user_id, app_account_token FROM users WHERE \(column) = ?", .text(value))
        return try rows.first.map { UserAccount(user: try $0.text(0), appAccountToken: try $0.text(1)) }
    }

    // MARK: Records

    public func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite {
        try Self.require(!user.isEmpty, "the record's user is empty")
        try Self.require(!record.transactionID.isEmpty, "the record's transaction id is empty")
        try Self.require(!record.productID.isEmpty, "the record's product id is empty")
        return try await database.transaction { session in
            let r = record
            let binds: [SQLValue] = [
                .text(r.productID), .text(r.strategy), .text(r.kind), SQLValue(r.quantity), SQLValue(r.receipt),
                .real(r.purchaseDate), SQLValue(r.expirationDate), .text(user), .text(r.transactionID),
            ]
            let replaced = try await session.rows(
                """
                UPDATE records SET product_id = ?, strategy = ?, kind = ?, quantity = ?, receipt = ?, purchase_date = ?,
                    expiration_date = ? WHERE user_id = ? AND transaction_id = ? RETURNING transaction_id
                """, binds)
            if !replaced.isEmpty { return .replaced }
            let created = try await session.rows(
                """
                INSERT INTO records (product_id, strategy, kind, quantity, receipt, purchase_date, expiration_date, user_id,
                    transaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING transaction_id
                """, binds)
            // Another PUT of the same id committed between the two statements: this one replaces it.
            if created.isEmpty {
                _ = try await session.rows(
                    """
                    UPDATE records SET product_id = ?, strategy = ?, kind = ?, quantity = ?, receipt = ?, purchase_date = ?,
                        expiration_date = ? WHERE user_id = ? AND transaction_id = ?
                    """, binds)
                return .replaced
            }
            return .created
        }
    }

    public func records(of user: String) async throws -> [ServerRecord] {
        try await database.transaction { session in
            try await session.run(
                """
                SELECT transaction_id, product_id, strategy, kind, quantity, receipt, purchase_date, expiration_date
                FROM records WHERE user_id = ? ORDER BY transaction_id
                """, .text(user)
            ).map { row in
                ServerRecord(
                    transactionID: try row.text(0), productID: try row.text(1), strategy: try row.text(2), kind: try row.text(3),
                    quantity: try row.optionalInteger(4), receipt: try row.optionalText(5), purchaseDate: try row.real(6),
                    expirationDate: try row.optionalReal(7))
            }
        }
    }

    // MARK: Notifications

    public func receive(_ notification: StoredNotification) async throws -> NotificationReceipt {
        try Self.require(!notification.notificationUUID.isEmpty, "the notification's notificationUUID is empty")
        return try await database.transaction { session in
            let n = notification
            let stored = try await session.run(
                """
                INSERT INTO notifications (notification_uuid, notification_type, subtype, environment, payload, received_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING notification_uuid
                """,
                .text(n.notificationUUID), .text(n.notificationType), SQLValue(n.subtype), .text(n.environment),
                .text(n.payload), .real(n.receivedAt))
            if !stored.isEmpty { return .new }
            let earlier = try await session.run(
                "SELECT processed_at FROM notifications WHERE notification_uuid = ?", .text(n.notificationUUID))
            return try earlier.first?.optionalReal(0) == nil ? .pending : .processed
        }
    }

    public func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool {
        for effect in effects {
            switch effect {
            case .transaction(let transaction): try Self.check(transaction)
            case .toldTransaction(let transaction): try Self.require(!transaction.transactionID.isEmpty, "the told transaction's id is empty")
            case .grant(let grant): try Self.check(grant)
            case .revokeGrants(let revocation): try Self.check(revocation)
            case .reinstateGrants(let transactionID): try Self.require(!transactionID.isEmpty, "reinstating grants: the transaction id is empty")
            case .renewal(let renewal): try Self.check(renewal)
            case .consumptionRequest: break
            }
        }
        return try await database.transaction { session in
            // The mark first: a concurrent processing of the same notification waits on this row, then finds it marked.
            let marked = try await session.run(
                "UPDATE notifications SET processed_at = ? WHERE notification_uuid = ? AND processed_at IS NULL RETURNING notification_uuid",
                .real(date), .text(notificationUUID))
            guard !marked.isEmpty else {
                let known = try await session.run("SELECT 1 FROM notifications WHERE notification_uuid = ?", .text(notificationUUID))
                guard !known.isEmpty else {
                    throw StorageError.invalidArgument("no notification '\(notificationUUID)' was received; store it with receive(_:) first")
                }
                return false
            }
            for effect in effects {
                switch effect {
                case .transaction(let transaction): _ = try await Self.keep(transaction, in: session)
                case .toldTransaction(let transaction): try await Self.keepTold(transaction, in: session)
                case .renewal(let renewal): _ = try await Self.update(renewal, in: session)
                case .grant(let grant): _ = try await Self.apply(grant, in: session)
                case .consumptionRequest(let request):
                    try await session.run(
                        """
                        INSERT INTO consumption_requests (notification_uuid, transaction_id, user_id, received_at)
                        VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                        """,
                        .text(request.notificationUUID), .text(request.transactionID), SQLValue(request.user), .real(request.receivedAt))
                case .revokeGrants(let revocation): _ = try await Self.revokeGrants(revocation, in: session)
                case .reinstateGrants(let transactionID): _ = try await Self.reinstateGrants(of: transactionID, in: session)
                }
            }
            return true
        }
    }

    public func notifications(limit: Int) async throws -> [StoredNotification] {
        try await database.transaction { session in
            try await session.run(
                """
                SELECT notification_uuid, notification_type, subtype, environment, payload, received_at, processed_at
                FROM notifications ORDER BY received_at DESC, notification_uuid LIMIT ?
                """, SQLValue(max(0, limit))
            ).map { row in
                StoredNotification(
                    notificationUUID: try row.text(0), notificationType: try row.text(1), subtype: try row.optionalText(2),
                    environment: try row.text(3), payload: try row.text(4), receivedAt: try row.real(5), processedAt: try row.optionalReal(6))
            }
        }
    }

    public func consumptionRequests() async throws -> [ConsumptionRequest] {
        try await database.transaction { session in
            try await session.run(
                "SELECT notification_uuid, transaction_id, user_id, received_at FROM consumption_requests ORDER BY received_at, notification_uuid"
            ).map { row in
                ConsumptionRequest(
                    notificationUUID: try row.text(0), transactionID: try row.text(1), user: try row.optionalText(2), receivedAt: try row.real(3))
            }
        }
    }

    // MARK: Checks

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        guard condition else { throw StorageError.invalidArgument(message()) }
    }

    static func check(_ t: StoredTransaction) throws {
        try require(!t.transactionID.isEmpty, "the transaction's id is empty")
        try require(!t.user.isEmpty, "transaction '\(t.transactionID)': the user is empty")
        try require(t.quantity > 0, "transaction '\(t.transactionID)': the quantity is \(t.quantity); it must be positive")
    }

    static func check(_ r: GrantRevocation) throws {
        try require(!r.transactionID.isEmpty, "revoking grants: the transaction id is empty")
        try require(
            (0...GrantRevocation.whole).contains(r.share),
            "revoking the grants of transaction '\(r.transactionID)': the share is \(r.share); it must be 0 to \(GrantRevocation.whole) (thousandths of a percent)")
    }

    static func check(_ r: SubscriptionRenewal) throws {
        try require(!r.originalTransactionID.isEmpty, "the subscription's original transaction id is empty")
    }

    static func check(_ g: Grant) throws {
        try require(!g.user.isEmpty, "grant of transaction '\(g.transactionID)': the user is empty")
        try require(!g.transactionID.isEmpty, "grant: the transaction id is empty")
        try require(!g.balance.isEmpty, "grant of transaction '\(g.transactionID)': the balance is empty")
        try require(g.amount > 0, "grant of transaction '\(g.transactionID)': the amount is \(g.amount); it must be positive")
        try require(!g.environment.isEmpty, "grant of transaction '\(g.transactionID)': the environment is empty")
    }
}

/// An answer that must roll the transaction back (the spend's claimed key), carried out of it as an error.
enum Refusal: Error {
    case insufficient(available: Int)
}
