/// The journal's tables. One database holds the progress of every
/// transaction's plan and every effect the engine keeps itself, so that a
/// step's effects and the entry marking it done commit together.
enum JournalSchema {
    /// Written in `meta` to tell a Storekeeper journal from another database.
    static let format = "storekeeper-journal"
    /// The schema version this build reads and writes.
    static let version = 7

    /// Revoked transactions (refunds, family sharing stopped): kept for good,
    /// so that a transaction the store took back delivers nothing again,
    /// whenever its update or its plan's steps run.
    static let revocations = "CREATE TABLE revocations (transaction_id TEXT PRIMARY KEY, product TEXT NOT NULL, reason TEXT NOT NULL, date REAL NOT NULL) WITHOUT ROWID"
    /// How much of each grant a revocation takes (`StoreRevocation.share`):
    /// a transaction refunded in part before its plan granted (the plan
    /// waiting on a server that was down) grants what the refund left.
    static let revocationShares = "ALTER TABLE revocations ADD COLUMN share INTEGER NOT NULL DEFAULT 100000"

    /// Every transaction that delivered a product, with its end: `owned` keeps
    /// the one that owns each product now, and when that one is revoked the
    /// product passes to the best that stands (a pass bought twice, the
    /// second refunded). `subscription` is an auto-renewable period's
    /// `originalTransactionId` (null for other products): a period owns its
    /// product only while no later unrevoked period of the same subscription
    /// delivered (Apple's currentEntitlements: "the latest transaction for
    /// each auto-renewable subscription").
    static let ownerships = """
        CREATE TABLE IF NOT EXISTS ownerships (product TEXT NOT NULL, transaction_id TEXT NOT NULL, subscription TEXT,
            purchase_date REAL NOT NULL, expiration_date REAL, PRIMARY KEY (product, transaction_id)) WITHOUT ROWID
        """
    static let ownershipsBySubscription =
        "CREATE INDEX IF NOT EXISTS ownerships_subscription ON ownerships (subscription, purchase_date) WHERE subscription IS NOT NULL"

    /// Spends of balances, by the app's idempotency key: applied, or pending
    /// (sent, or about to be, to the server or the iCloud store), with what
    /// remained when applied, the answer the same key gets again.
    static let spends = """
        CREATE TABLE spends (key TEXT PRIMARY KEY, balance TEXT NOT NULL, amount INTEGER NOT NULL, keeping TEXT NOT NULL,
            state INTEGER NOT NULL, remaining INTEGER, date REAL NOT NULL) WITHOUT ROWID
        """

    /// What takes a journal from a version to the next, by the version it
    /// has. Each runs, with the version's bump, in one database transaction.
    static let upgrades: [Int: [String]] = [
        // Version 2 added revocations; nothing else changed.
        1: [revocations],
        // Version 3 added spends.
        2: [spends],
        // Version 4 keeps a transaction's signed form (StoreKit 2's JWS) with its
        // plan, so that a plan resumed from the journal still sends it to verify.
        3: ["ALTER TABLE dispatches ADD COLUMN signed_transaction TEXT"],
        // Version 5 keeps a revoked transaction's grants with what the revocation
        // took (`taken`; a prorated refund takes a share), so that a reversed
        // refund gives back exactly that. Grants revoked before it were deleted,
        // having had all taken: a reversal grants them again in full.
        4: ["ALTER TABLE grants ADD COLUMN taken INTEGER NOT NULL DEFAULT 0"],
        // Version 6 keeps every ownership a transaction delivered (`ownerships`),
        // not only each product's current one. Journals before it start with the
        // current owners; a purchase another one overwrote before the upgrade is
        // not known (its product goes if the other is revoked, as before).
        5: [ownerships, ownershipsBySubscription, """
            INSERT OR IGNORE INTO ownerships (product, transaction_id, subscription, purchase_date, expiration_date)
            SELECT product, transaction_id,
                (SELECT coalesce(original_id, transaction_id) FROM dispatches WHERE dispatches.transaction_id = owned.transaction_id
                    AND dispatches.expiration_date IS NOT NULL LIMIT 1),
                purchase_date, expiration_date FROM owned
            """],
        // Version 7 keeps each revocation's share (`revocationShares`); those
        // before it took everything, or took their share of grants already made.
        6: [revocationShares],
    ]

    static let statements = [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        // One row per transaction and situation (state, and error for `failed`).
        // `steps` keeps the plan as it was when the update arrived, so that a
        // resumed plan runs the same steps even if the app's catalog changed.
        """
        CREATE TABLE dispatches (
            transaction_id TEXT NOT NULL,
            slot INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            sequence INTEGER NOT NULL,
            product TEXT NOT NULL,
            state TEXT NOT NULL,
            error TEXT,
            quantity INTEGER NOT NULL,
            username TEXT,
            receipt BLOB,
            signed_transaction TEXT,
            original_id TEXT,
            purchase_date REAL NOT NULL,
            expiration_date REAL,
            steps TEXT NOT NULL,
            next_step INTEGER NOT NULL,
            status INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            retry_at REAL,
            last_error TEXT,
            PRIMARY KEY (transaction_id, slot)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX dispatches_open ON dispatches (status, sequence) WHERE status < 3",
        "CREATE TABLE owned (product TEXT PRIMARY KEY, transaction_id TEXT NOT NULL, purchase_date REAL NOT NULL, expiration_date REAL) WITHOUT ROWID",
        "CREATE TABLE unlocked (feature TEXT NOT NULL, product TEXT NOT NULL, transaction_id TEXT NOT NULL, PRIMARY KEY (feature, product)) WITHOUT ROWID",
        "CREATE TABLE balances (name TEXT PRIMARY KEY, amount INTEGER NOT NULL) WITHOUT ROWID",
        // The ledger of grants: a transaction adds to a balance once, whatever happens;
        // `taken` is what a revocation took back of it (all, or a prorated refund's share).
        "CREATE TABLE grants (transaction_id TEXT NOT NULL, balance TEXT NOT NULL, amount INTEGER NOT NULL, taken INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (transaction_id, balance)) WITHOUT ROWID",
        // `app-state` records.
        "CREATE TABLE records (transaction_id TEXT PRIMARY KEY, product TEXT NOT NULL, quantity INTEGER NOT NULL, username TEXT, purchase_date REAL NOT NULL) WITHOUT ROWID",
        "CREATE TABLE content (product TEXT PRIMARY KEY, source TEXT NOT NULL, path TEXT NOT NULL, storage TEXT, transaction_id TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE custom_effects (transaction_id TEXT NOT NULL, step TEXT NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (transaction_id, step, detail)) WITHOUT ROWID",
        revocations,
        revocationShares,
        spends,
        ownerships,
        ownershipsBySubscription,
    ]
}
