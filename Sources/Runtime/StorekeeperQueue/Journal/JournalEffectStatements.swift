import GRDB

/// The statements a commit runs once an effect, each found in GRDB's statement cache once a batch rather
/// than once an effect: that cache's key is the SQL text, hashed at every look, a cost the size of the
/// insert itself for the short ones.
struct JournalEffectStatements {
    /// One statement of ``Journal``'s `apply`, by what it writes.
    enum Kind: Int, CaseIterable {
        /// Notes an ownership a transaction delivered (`ownerships`); a second note of the same keeps the
        /// later end. Its `subscription` is the period's `originalTransactionId`, null for a product that is
        /// not an auto-renewable subscription.
        case noteOwnership
        /// Makes a transaction a product's owner (`owned`) when it lasts longer than the one there.
        case own
        case unlock
        case grant
        case addToBalance
        case record
        case content
        case custom

        var sql: String {
            switch self {
            case .noteOwnership: """
                INSERT INTO ownerships (product, transaction_id, subscription, purchase_date, expiration_date) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (product, transaction_id) DO UPDATE SET expiration_date = excluded.expiration_date
                WHERE ownerships.expiration_date IS NOT NULL
                    AND (excluded.expiration_date IS NULL OR excluded.expiration_date > ownerships.expiration_date)
                """
            // The later end wins; no end outlasts any end.
            case .own: """
                INSERT INTO owned (product, transaction_id, purchase_date, expiration_date) VALUES (?, ?, ?, ?)
                ON CONFLICT (product) DO UPDATE SET transaction_id = excluded.transaction_id, purchase_date = excluded.purchase_date,
                    expiration_date = excluded.expiration_date
                WHERE owned.expiration_date IS NOT NULL AND (excluded.expiration_date IS NULL OR excluded.expiration_date > owned.expiration_date)
                """
            case .unlock: "INSERT OR IGNORE INTO unlocked (feature, product, transaction_id) VALUES (?, ?, ?)"
            // The ledger's key makes a second grant of the same transaction to the same balance a no-op.
            case .grant: "INSERT OR IGNORE INTO grants (transaction_id, balance, amount, taken) VALUES (?, ?, ?, ?)"
            case .addToBalance: "INSERT INTO balances (name, amount) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET amount = amount + excluded.amount"
            case .record: "INSERT OR IGNORE INTO records (transaction_id, product, quantity, username, purchase_date) VALUES (?, ?, ?, ?, ?)"
            case .content: """
                INSERT INTO content (product, source, path, storage, transaction_id) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (product) DO UPDATE SET source = excluded.source, path = excluded.path, storage = excluded.storage,
                    transaction_id = excluded.transaction_id
                """
            case .custom: "INSERT OR IGNORE INTO custom_effects (transaction_id, step, detail) VALUES (?, ?, ?)"
            }
        }
    }

    private let db: Database
    private var found: [Statement?] = Array(repeating: nil, count: Kind.allCases.count)

    init(_ db: Database) {
        self.db = db
    }

    /// The statement of `kind`, prepared (or found in GRDB's cache) at its first use in this batch.
    mutating func callAsFunction(_ kind: Kind) throws -> Statement {
        if let statement = found[kind.rawValue] { return statement }
        let statement = try db.cachedStatement(sql: kind.sql)
        found[kind.rawValue] = statement
        return statement
    }
}
