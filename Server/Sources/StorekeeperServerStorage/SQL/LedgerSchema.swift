import Foundation

/// The ledger's tables, as versioned migrations whose SQL both databases
/// read alike: `TEXT`, `BIGINT` and `DOUBLE PRECISION` (SQLite gives them
/// its text, integer and real affinities), dates as seconds since 1970.
enum LedgerSchema {
    /// One version of the schema: its statements, run in order, once.
    struct Migration: Sendable {
        var version: Int
        var statements: [String]
    }

    /// Every migration, oldest first. Append; never edit one that shipped.
    static let migrations: [Migration] = [
        Migration(version: 1, statements: [
            """
            CREATE TABLE users (
                user_id TEXT PRIMARY KEY,
                app_account_token TEXT NOT NULL UNIQUE,
                created_at DOUBLE PRECISION NOT NULL)
            """,
            """
            CREATE TABLE transactions (
                transaction_id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                purchase_date DOUBLE PRECISION NOT NULL,
                expiration_date DOUBLE PRECISION,
                revocation_date DOUBLE PRECISION,
                signed_date DOUBLE PRECISION NOT NULL,
                payload TEXT NOT NULL)
            """,
            "CREATE INDEX transactions_by_user ON transactions (user_id)",
            """
            CREATE TABLE subscriptions (
                original_transaction_id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                status TEXT NOT NULL,
                expiration_date DOUBLE PRECISION,
                signed_date DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX subscriptions_by_user ON subscriptions (user_id)",
            """
            CREATE TABLE grants (
                transaction_id TEXT NOT NULL,
                balance TEXT NOT NULL,
                user_id TEXT NOT NULL,
                amount BIGINT NOT NULL CHECK (amount > 0),
                PRIMARY KEY (transaction_id, balance))
            """,
            """
            CREATE TABLE balances (
                user_id TEXT NOT NULL,
                balance TEXT NOT NULL,
                amount BIGINT NOT NULL CHECK (amount >= 0),
                PRIMARY KEY (user_id, balance))
            """,
            """
            CREATE TABLE spends (
                user_id TEXT NOT NULL,
                spend_key TEXT NOT NULL,
                balance TEXT NOT NULL,
                amount BIGINT NOT NULL CHECK (amount > 0),
                remaining BIGINT,
                PRIMARY KEY (user_id, spend_key))
            """,
            """
            CREATE TABLE records (
                user_id TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                strategy TEXT NOT NULL,
                kind TEXT NOT NULL,
                quantity BIGINT,
                receipt TEXT,
                purchase_date DOUBLE PRECISION NOT NULL,
                expiration_date DOUBLE PRECISION,
                PRIMARY KEY (user_id, transaction_id))
            """,
            """
            CREATE TABLE notifications (
                notification_uuid TEXT PRIMARY KEY,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                environment TEXT NOT NULL,
                payload TEXT NOT NULL,
                received_at DOUBLE PRECISION NOT NULL,
                processed_at DOUBLE PRECISION)
            """,
            "CREATE INDEX notifications_by_time ON notifications (received_at)",
            """
            CREATE TABLE consumption_requests (
                notification_uuid TEXT PRIMARY KEY,
                transaction_id TEXT NOT NULL,
                user_id TEXT,
                received_at DOUBLE PRECISION NOT NULL)
            """,
        ]),
        // Refunds take back what a transaction granted, once: when (revoked_at) and how much was
        // actually taken (revoked_amount, at most what the balance held), so a reversal gives back exactly that.
        Migration(version: 2, statements: [
            "ALTER TABLE grants ADD COLUMN revoked_at DOUBLE PRECISION",
            "ALTER TABLE grants ADD COLUMN revoked_amount BIGINT",
            "CREATE INDEX transactions_by_original ON transactions (original_transaction_id)",
        ]),
        // What a purchase's life needs (issue 24): each transaction's newest version decides
        // (upgraded, family-shared, a refund's share, the appAccountToken it carries); versions a
        // notification told before anyone held them; Apple's own status per subscription, which
        // replaces the arrival-ordered `subscriptions` table (states are derived when read);
        // balances per App Store environment and allowed below zero (a refund of what was spent is
        // owed): SQLite cannot drop a CHECK, so that table is rebuilt, the same way on both.
        Migration(version: 3, statements: [
            "ALTER TABLE transactions ADD COLUMN revocation_percentage BIGINT",
            "ALTER TABLE transactions ADD COLUMN is_upgraded BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE transactions ADD COLUMN ownership TEXT NOT NULL DEFAULT 'PURCHASED'",
            "ALTER TABLE transactions ADD COLUMN app_account_token TEXT",
            """
            CREATE TABLE told_transactions (
                transaction_id TEXT PRIMARY KEY,
                original_transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                purchase_date DOUBLE PRECISION NOT NULL,
                expiration_date DOUBLE PRECISION,
                revocation_date DOUBLE PRECISION,
                revocation_percentage BIGINT,
                is_upgraded BIGINT NOT NULL,
                ownership TEXT NOT NULL,
                app_account_token TEXT,
                signed_date DOUBLE PRECISION NOT NULL,
                payload TEXT NOT NULL)
            """,
            "CREATE INDEX told_transactions_by_original ON told_transactions (original_transaction_id)",
            "CREATE INDEX told_transactions_by_token ON told_transactions (app_account_token)",
            """
            CREATE TABLE subscription_renewals (
                original_transaction_id TEXT PRIMARY KEY,
                status BIGINT,
                status_signed_date DOUBLE PRECISION,
                grace_period_expires_date DOUBLE PRECISION,
                renewal_signed_date DOUBLE PRECISION)
            """,
            "DROP TABLE subscriptions",
            "ALTER TABLE grants ADD COLUMN environment TEXT NOT NULL DEFAULT 'Production'",
            // The catalog's refunds.spent-balance when granted, and what `forgive` let go of a refund
            // the balance could not cover (so a reversal gives back only what was taken).
            "ALTER TABLE grants ADD COLUMN refunded_spends TEXT NOT NULL DEFAULT 'owe'",
            "ALTER TABLE grants ADD COLUMN forgiven_amount BIGINT",
            """
            UPDATE grants SET environment = COALESCE(
                (SELECT environment FROM transactions WHERE transactions.transaction_id = grants.transaction_id), 'Production')
            """,
            """
            CREATE TABLE balances_by_environment (
                user_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                balance TEXT NOT NULL,
                amount BIGINT NOT NULL,
                PRIMARY KEY (user_id, environment, balance))
            """,
            // A version-2 balance mixed the environments: it goes to Production when any of its grants came from there.
            """
            INSERT INTO balances_by_environment (user_id, environment, balance, amount)
            SELECT user_id, COALESCE(
                (SELECT grants.environment FROM grants WHERE grants.user_id = balances.user_id AND grants.balance = balances.balance
                 ORDER BY CASE WHEN grants.environment = 'Production' THEN 0 ELSE 1 END LIMIT 1), 'Production'),
                balance, amount
            FROM balances
            """,
            "DROP TABLE balances",
            "ALTER TABLE balances_by_environment RENAME TO balances",
            "ALTER TABLE spends ADD COLUMN environment TEXT NOT NULL DEFAULT 'Production'",
            """
            UPDATE spends SET environment = COALESCE(
                (SELECT balances.environment FROM balances WHERE balances.user_id = spends.user_id AND balances.balance = spends.balance
                 ORDER BY CASE WHEN balances.environment = 'Production' THEN 0 ELSE 1 END LIMIT 1), 'Production')
            """,
        ]),
    ]

    /// The newest version this code knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The table of applied versions; created before anything else, under the backend's lock.
    static let versionTable = """
        CREATE TABLE IF NOT EXISTS storekeeper_schema (
            version BIGINT PRIMARY KEY,
            applied_at DOUBLE PRECISION NOT NULL)
        """

    /// Applies, in `session` (which holds the backend's migration lock), the migrations newer than the database's version.
    static func apply(_ migrations: [Migration], in session: any SQLSession) async throws {
        try await session.run(versionTable)
        let found = try await currentVersion(in: session)
        let known = migrations.last?.version ?? 0
        guard found <= known else { throw StorageError.schemaTooNew(found: found, known: known) }
        for migration in migrations where migration.version > found {
            for statement in migration.statements { try await session.run(statement) }
            try await session.run(
                "INSERT INTO storekeeper_schema (version, applied_at) VALUES (?, ?)",
                SQLValue(migration.version), SQLValue(Date().timeIntervalSince1970))
        }
    }

    /// The database's schema version, 0 when no migration ran.
    static func currentVersion(in session: any SQLSession) async throws -> Int {
        let rows = try await session.run("SELECT COALESCE(MAX(version), 0) FROM storekeeper_schema")
        return try rows.first?.integer(0) ?? 0
    }
}
