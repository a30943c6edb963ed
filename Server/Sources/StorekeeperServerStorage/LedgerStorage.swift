/// What the server keeps, per user: users and their `appAccountToken`,
/// verified transactions, subscriptions, grants and balances, spends,
/// records of the `server` persistence strategy, App Store notifications and
/// consumption requests.
///
/// Every method that reads or changes a user's data takes the user, and
/// touches that user's rows only: another user's data is never read or
/// changed through it. Idempotency comes from the database (unique keys,
/// `INSERT … ON CONFLICT DO NOTHING`, conditional `UPDATE`s), so several
/// server processes sharing one database agree. A failure a retry would fix
/// is ``StorageError/transient(_:)``.
///
/// One implementation, ``SQLLedgerStorage``, on SQLite (the default) or
/// PostgreSQL.
public protocol LedgerStorage: Sendable {
    /// Brings the schema to this version: versioned migrations, safe when
    /// several instances start at once. Call once at start.
    func migrate() async throws

    /// The schema version the database has (0 before any migration).
    func schemaVersion() async throws -> Int

    // MARK: Users

    /// Registers `user` with `appAccountToken` if it is new, and answers the
    /// account as kept (a known user keeps the token it has).
    func register(user: String, appAccountToken: String) async throws -> UserAccount

    /// The user a StoreKit `appAccountToken` names, if any (operators, restores).
    func account(appAccountToken: String) async throws -> UserAccount?

    /// The account of `user`, if known.
    func account(user: String) async throws -> UserAccount?

    // MARK: Verified transactions

    /// Keeps a verified transaction once by its id; a newer `signedDate` replaces the kept one.
    func keep(_ transaction: StoredTransaction) async throws -> TransactionWrite

    /// Keeps a verified transaction's effects for `account`'s user in one
    /// database transaction: the user registered if new, the transaction
    /// kept (once by its id; a newer `signedDate` replaces it), then its
    /// grants and subscription state. A grant of a transaction the ledger
    /// holds as revoked is not applied (an older copy of a refunded purchase
    /// grants nothing). When the transaction is another user's, nothing is
    /// applied and the answer is ``TransactionWrite/ownedByAnotherUser``.
    /// `effects` starts with the ``LedgerEffect/transaction(_:)``.
    func keep(_ effects: [LedgerEffect], for account: UserAccount) async throws -> TransactionWrite

    /// `user`'s transactions, by transaction id.
    func transactions(of user: String) async throws -> [StoredTransaction]

    /// A transaction by id, whoever it belongs to (operator routes only).
    func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction?

    /// Moves a kept transaction from one user to another, in one database
    /// transaction, for a restore by another user when the configuration says
    /// `transfer`: the transaction, its grants (the balance they still hold
    /// leaves `from` and goes to `to`, never more than `from` has), and, when
    /// `from` holds the subscription it belongs to (keyed by its original
    /// transaction id), that subscription with all of `from`'s transactions of
    /// it. Answers whether it moved: false when `from` does not hold the
    /// transaction (nobody does, another user does, or `to` does already).
    func transfer(transactionID: String, from: String, to: String) async throws -> Bool

    // MARK: Subscriptions

    /// Updates a subscription's state by its original transaction id; a newer
    /// `signedDate` wins. Answers whether it changed.
    func update(_ subscription: SubscriptionState) async throws -> Bool

    /// `user`'s subscriptions, by original transaction id.
    func subscriptions(of user: String) async throws -> [SubscriptionState]

    // MARK: Balances

    /// Applies a grant exactly once per transaction and balance. Answers whether it was applied now.
    func apply(_ grant: Grant) async throws -> Bool

    /// Takes back what a refunded or revoked transaction granted, whichever
    /// user holds the grants: each grant's ``GrantRevocation/share``, never
    /// more than the balance holds (the balance stops at zero), once however
    /// often it is applied. Nothing happens while the transaction is kept
    /// unrevoked (its newest signed version stands), so a refund that arrives
    /// after its reversal takes nothing. Answers whether grants were revoked now.
    func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool

    /// Gives back exactly what ``revokeGrants(_:)`` took from a transaction's
    /// grants, once. Nothing happens while the transaction is kept revoked.
    /// Answers whether grants were reinstated now.
    func reinstateGrants(of transactionID: String) async throws -> Bool

    /// `user`'s balances: granted less spent, never below zero.
    func balances(of user: String) async throws -> [String: Int]

    /// Spends a balance, idempotent by key: the same key and body answer the
    /// first answer, another body is refused, and nothing goes below zero.
    func spend(_ request: SpendRequest) async throws -> SpendOutcome

    // MARK: Records

    /// Keeps `record` for `user`, replacing the user's record of the same transaction id.
    func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite

    /// `user`'s records, by transaction id.
    func records(of user: String) async throws -> [ServerRecord]

    // MARK: Notifications

    /// Stores a notification by its UUID before it is processed; a retried
    /// one is not stored twice. Answers whether it still needs processing.
    func receive(_ notification: StoredNotification) async throws -> NotificationReceipt

    /// Applies a stored notification's effects and marks it processed, in one
    /// database transaction, unless it was processed already (then nothing
    /// changes). Answers whether the effects were applied now.
    func process(notificationUUID: String, effects: [LedgerEffect], at date: Double) async throws -> Bool

    /// The notifications received, newest first, at most `limit` (operator routes).
    func notifications(limit: Int) async throws -> [StoredNotification]

    /// The consumption requests kept, oldest first (operator routes).
    func consumptionRequests() async throws -> [ConsumptionRequest]
}
