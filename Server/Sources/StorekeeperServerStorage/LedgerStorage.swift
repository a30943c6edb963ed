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

    /// The schema version, read without a lock or a write: what `GET /health`, which
    /// anyone may call, asks. Throws when the database cannot answer
    /// (``StorageError/transient(_:)``) or has not been migrated.
    func probe() async throws -> Int

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
    /// kept (once by its id; the newest signed version wins, a version a
    /// notification told before anyone held it included), then its grants
    /// and what the App Store said of its subscription. Grants are settled by
    /// the newest kept version: a revoked one takes back its share, so an older
    /// copy of a refunded purchase grants nothing. When the transaction, or,
    /// for one without an `appAccountToken`, its original transaction (the
    /// same ownership), is another user's, nothing is applied and the answer
    /// is ``TransactionWrite/ownedByAnotherUser``.
    /// `effects` starts with the ``LedgerEffect/transaction(_:)``.
    func keep(_ effects: [LedgerEffect], for account: UserAccount) async throws -> TransactionWrite

    /// `user`'s transactions (their newest kept versions), by transaction id.
    func transactions(of user: String) async throws -> [StoredTransaction]

    /// A transaction by id, whoever it belongs to (operator routes only).
    func lookUpTransaction(_ transactionID: String) async throws -> StoredTransaction?

    /// Who holds a transaction: the user holding `transactionID`, else the user
    /// holding a transaction of `originalTransactionID` with the same
    /// `ownership` (ownership follows the original transaction); nil when nobody does.
    func holder(of transactionID: String, originalTransactionID: String, ownership: String) async throws -> String?

    /// The transactions notifications told while no user held them that
    /// `user` holds now: those carrying `appAccountToken` (the user's), and
    /// those whose original transaction `user` holds (same ownership). Their
    /// `user` is empty; keep them for `user` with ``keep(_:for:)``.
    func toldTransactions(for user: String, appAccountToken: String) async throws -> [StoredTransaction]

    /// Moves a purchase from one user to another, in one database
    /// transaction, for a restore by another user when the configuration
    /// says `transfer`: every transaction of `from` whose original
    /// transaction is `originalTransactionID` (a subscription's periods, or one
    /// purchase), and their grants: each grant's worth (its amount less what a
    /// refund took back) leaves `from`'s balance, which may go below zero
    /// (what `from` spent stays spent), and goes to `to`. Answers whether it
    /// moved: false when `from` holds none of them.
    func transfer(originalTransactionID: String, from: String, to: String) async throws -> Bool

    // MARK: Subscriptions

    /// Keeps what the App Store said of a subscription, by its original
    /// transaction id; each part (status, renewal info) is replaced only by a
    /// newer signed one. Answers whether anything changed.
    func update(_ renewal: SubscriptionRenewal) async throws -> Bool

    /// What the App Store said of the subscriptions `user` holds a transaction of, by original transaction id.
    func renewals(of user: String) async throws -> [SubscriptionRenewal]

    // MARK: Balances

    /// Applies a grant exactly once per transaction and balance, then settles it
    /// by the transaction's newest kept version (a revoked one takes its share back).
    /// Answers whether it was applied now.
    func apply(_ grant: Grant) async throws -> Bool

    /// Takes back what a refunded or revoked transaction granted, whichever
    /// user holds the grants. For a transaction the ledger keeps, its newest
    /// kept version decides (nothing is taken while it stands, its
    /// `revocationPercentage` share when revoked), so a refund that arrives
    /// after its reversal takes nothing; for a transaction not kept, each
    /// grant's ``GrantRevocation/share``. The share is taken whatever the
    /// balance holds: what was spent is owed. Once however often it is
    /// applied. Answers whether a balance changed now.
    func revokeGrants(_ revocation: GrantRevocation) async throws -> Bool

    /// Gives back what ``revokeGrants(_:)`` took from a transaction's grants,
    /// once. For a transaction the ledger keeps, its newest kept version
    /// decides (nothing while it is revoked). Answers whether a balance changed now.
    func reinstateGrants(of transactionID: String) async throws -> Bool

    /// `user`'s balances in `environment`, each its net: granted, less what
    /// refunds took back, less spent. Below zero when refunds took back what was
    /// spent (the user owes it; later grants pay it first).
    func balances(of user: String, environment: String) async throws -> [String: Int]

    /// Spends a balance of the request's environment, idempotent by key: the
    /// same key and body answer the first answer, another body is refused, and
    /// a spend is accepted only when the net holds the amount.
    func spend(_ request: SpendRequest) async throws -> SpendOutcome

    // MARK: Records

    /// Keeps `record` for `user`, replacing the user's record of the same transaction id.
    func put(_ record: ServerRecord, for user: String) async throws -> RecordWrite

    /// `user`'s records, by transaction id.
    func records(of user: String) async throws -> [ServerRecord]

    /// How many records `user` has, and whether one of them is `transactionID`'s (a `PUT` of
    /// it replaces it, adding nothing): a count for the limit of records per user, not a read of each.
    func recordCount(of user: String, holding transactionID: String) async throws -> (count: Int, holds: Bool)

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
