import Foundation
import GRDB
import StorekeeperCore
import StorekeeperRuntime

/// The queue's durable memory: one SQLite database (through GRDB) at a path
/// the app chooses, holding each transaction's progress through its plan and
/// every effect the engine keeps itself (ownership, unlocked features,
/// balances and their ledger, `app-state` records, content locations).
///
/// A step's effects and the journal entry marking it done are written in one
/// database transaction; after a crash the queue resumes at the first step
/// not done, and nothing is applied twice.
final class Journal: Sendable {
    let path: String
    private let database: DatabaseQueue
    private let durability: JournalDurability
    /// Held from before the database is opened until ``close()``.
    private let lock: JournalLock
    /// The file opened, watched before each use so that a journal removed,
    /// replaced or cut short while open is an error, not written over;
    /// `nil` once the journal is closed.
    private let opened: Locked<JournalFile.Opened?>

    /// Opens the journal, creating it only if nothing is at `path`. A file
    /// that is empty, cut short, not a database, damaged, or belongs to
    /// something else is an error; so is a journal another queue has open.
    /// The file is never replaced.
    init(path: String, durability: JournalDurability) throws(JournalError) {
        self.path = path
        self.durability = durability
        var configuration = Configuration()
        // WAL is turned on only once the file is known to be a journal:
        // switching another database's mode would change a file we refuse.
        configuration.journalMode = .default
        configuration.busyMode = .timeout(5)
        configuration.label = "storekeeper-journal"
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw JournalError(path: path, kind: .unreadable, message: "cannot create the journal: the folder \(folder) does not exist")
        }
        // First the lock: what follows must not race another queue's open (or its creation of the journal).
        lock = try JournalLock(journalPath: path)
        let inspected: Int?
        do {
            if try !JournalFile.exists(path) { try Journal.create(at: path, folder: folder.isEmpty ? "." : folder) }
            inspected = try Journal.inspectReadOnly(path: path, configuration: configuration)
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
        do {
            // A journal whose log needs recovering (a crash) cannot be read
            // read-only: it is inspected through the writable connection, so
            // a refusal then may fold the log into the file as it closes.
            let version: Int
            if let inspected {
                version = inspected
            } else {
                version = try database.read { db in try Journal.inspect(db, path: path) }
                try Journal.check(database, path: path)
            }
            if version < JournalSchema.version {
                try Journal.upgrade(database, path: path)
                try Journal.check(database, path: path)
            }
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            opened = Locked(.some(try JournalFile.watch(path)))
        } catch {
            // Closed before the lock goes, so that no other queue opens the file while this one still has it.
            try? database.close()
            throw error as? JournalError ?? JournalError(path: path, error)
        }
    }

    deinit {
        close()
    }

    /// Closes the database, then releases the lock; later calls do nothing,
    /// and reading or writing is an error. The queue's `stop()` and its
    /// end do it; the process's end (a crash) does it too.
    func close() {
        let watched = opened.withLock { state in
            defer { state = nil }
            return state
        }
        try? database.close()
        // After the database: closing this descriptor first would drop SQLite's locks.
        if let watched { JournalFile.release(watched) }
        lock.release()
    }

    /// Creates a new journal at `path`, where nothing is: built whole under a
    /// name of its own beside it, flushed, then linked into place, so that a
    /// crash while it is made never leaves at `path` an empty file, which
    /// the next open would refuse as a journal emptied.
    private static func create(at path: String, folder: String) throws {
        let building = path + ".new"
        // What a crash while creating left; under the lock no other queue is creating it.
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(building + suffix) }
        var configuration = Configuration()
        configuration.journalMode = .default
        configuration.label = "storekeeper-journal-new"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let database = try DatabaseQueue(path: building, configuration: configuration)
        try database.write { db in
            for statement in JournalSchema.statements { try db.execute(sql: statement) }
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('format', ?), ('version', ?)",
                           arguments: [JournalSchema.format, String(JournalSchema.version)])
        }
        try database.close()
        // A link, unlike a rename, never replaces a file that appeared at `path` meanwhile.
        if link(building, path) != 0 {
            let code = errno
            guard code != EEXIST else {
                unlink(building)
                throw JournalError(path: path, kind: .unreadable,
                                   message: "a file appeared at the journal's path while the journal was being created: look at what wrote it, then open the queue again")
            }
            // No hard links on this file system: a rename then, the path was found free under the lock.
            guard rename(building, path) == 0 else {
                let code = errno
                unlink(building)
                throw JournalError(path: path, kind: .unreadable,
                                   message: "cannot create the journal (\(String(cString: strerror(code)))): check that the app may write in its folder")
            }
        } else {
            unlink(building)
        }
        do {
            try AtomicFile.flushFolder(folder)
        } catch {
            throw JournalError(path: path, kind: .io, message: "the journal was created but its folder could not be flushed: \(error)")
        }
    }

    /// Which version of journal the file is, read through a read-only
    /// connection; throws, leaving the file and its `-wal` exactly as they
    /// were, unless it is an undamaged journal this build can read (as it is
    /// or once upgraded). Read-only because closing a writable connection
    /// checkpoints the `-wal` into the database and deletes it: a refused
    /// journal would be changed. A `-wal` and `-shm` that only this
    /// inspection made (SQLite makes them to read a journal in WAL mode) are
    /// removed again when it refuses the file.
    ///
    /// - Returns: The version, or nil when SQLite cannot read the journal
    ///   read-only: its log must be recovered first, after a crash, which
    ///   takes a writable connection.
    private static func inspectReadOnly(path: String, configuration: Configuration) throws -> Int? {
        // Beside the real file: SQLite resolves a link to the journal before naming its -wal and -shm.
        let real = JournalFile.realPath(path)
        let made = ["-wal", "-shm"].map { real + $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        var readOnly = configuration
        readOnly.readonly = true
        readOnly.label = "storekeeper-journal-inspection"
        do {
            let inspection = try DatabaseQueue(path: path, configuration: readOnly)
            defer { try? inspection.close() }
            let version = try inspection.read { db in try Journal.inspect(db, path: path) }
            try Journal.check(inspection, path: path)
            return version
        } catch {
            // A read-only connection writes no log, so a log made since is
            // empty unless something else wrote it: then it stays.
            for file in made {
                var status = stat()
                if !file.hasSuffix("-wal") || (stat(file, &status) == 0 && status.st_size == 0) { unlink(file) }
            }
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_READONLY { return nil }
            throw error
        }
    }

    /// Which version of journal the database is; throws unless it is a
    /// journal this build can read, as it is or once upgraded. Reads only.
    private static func inspect(_ db: Database, path: String) throws -> Int {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty {
            // A new journal is created whole under another name (see `create`): an empty database is none of ours.
            throw JournalError(path: path, kind: .empty, message: """
                this is an SQLite database with no tables, not a journal (a journal always has its tables); it was left \
                as it is: restore the journal from a backup, or, to start over, delete this file deliberately
                """)
        }
        guard tables.contains("meta"),
              let format = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'"),
              format == JournalSchema.format
        else {
            throw JournalError(path: path, kind: .foreign,
                               message: "this database is not a Storekeeper journal (it has tables \(tables.sorted().prefix(5).joined(separator: ", "))); give the queue a file of its own")
        }
        let version = try storedVersion(db)
        guard version <= JournalSchema.version else {
            throw JournalError(path: path, kind: .foreign,
                               message: "this journal has version \(version); this build reads version \(JournalSchema.version) (was it written by a newer Storekeeper?)")
        }
        guard (version..<JournalSchema.version).allSatisfy({ JournalSchema.upgrades[$0] != nil }) else {
            throw JournalError(path: path, kind: .foreign,
                               message: "this journal has version \(version), which this build cannot upgrade to version \(JournalSchema.version); it was left as it is")
        }
        return version
    }

    /// The version `meta` gives (0 when it gives none, which no build upgrades).
    private static func storedVersion(_ db: Database) throws -> Int {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'").flatMap { Int($0) } ?? 0
    }

    /// Upgrades an older journal in place, in one database transaction: its
    /// new tables and its version commit together or not at all, so a crash
    /// leaves the old version, upgraded again at the next open.
    private static func upgrade(_ database: DatabaseQueue, path: String) throws {
        try database.writeWithoutTransaction { db in
            // Immediate: the version is read again under the write lock, so
            // that two opens of one file cannot both upgrade it.
            try db.inTransaction(.immediate) {
                var version = try storedVersion(db)
                while version < JournalSchema.version {
                    guard let statements = JournalSchema.upgrades[version] else {
                        throw JournalError(path: path, kind: .foreign,
                                           message: "this journal has version \(version), which this build cannot upgrade to version \(JournalSchema.version); it was left as it is")
                    }
                    for statement in statements { try db.execute(sql: statement) }
                    version += 1
                }
                try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'version'", arguments: [String(version)])
                return .commit
            }
        }
    }

    /// A quick integrity check, so that damage is reported at start with
    /// the file untouched rather than halfway through a plan.
    private static func check(_ database: DatabaseQueue, path: String) throws {
        let problems = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
        if problems != ["ok"] {
            throw JournalError(path: path, kind: .corrupt,
                               message: "the journal is damaged (\(problems.joined(separator: "; "))); it was left as it is: move it aside or restore it from a backup")
        }
    }

    // MARK: Reading

    /// The dispatches not done, in arrival order: what the queue replays at start.
    func openDispatches() throws(JournalError) -> [Dispatch] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM dispatches WHERE status < 3 ORDER BY sequence").compactMap(Journal.dispatch(from:))
        }
    }

    /// What is known of several transactions, by id: one query per 500 ids.
    func situations(of transactionIDs: some Collection<String>) throws(JournalError)
        -> [String: [(slot: Int, rank: Int, status: DispatchStatus)]] {
        var known: [String: [(slot: Int, rank: Int, status: DispatchStatus)]] = [:]
        let ids = Array(Set(transactionIDs))
        guard !ids.isEmpty else { return known }
        try read { db in
            var start = 0
            while start < ids.count {
                let chunk = ids[start..<min(ids.count, start + 500)]
                start += chunk.count
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchCursor(db, sql: "SELECT transaction_id, slot, rank, status FROM dispatches WHERE transaction_id IN (\(marks))",
                                               arguments: StatementArguments(Array(chunk)))
                while let row = try rows.next() {
                    known[row[0], default: []].append((slot: row[1], rank: row[2], status: DispatchStatus(rawValue: row[3]) ?? .halted))
                }
            }
        }
        return known
    }

    /// The largest arrival number used.
    func lastSequence() throws(JournalError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM dispatches") ?? 0 }
    }

    /// What the engine delivered, for the in-memory ledger.
    func ledger() throws(JournalError) -> EntitlementLedger {
        try read { db in try Journal.ledger(in: db) }
    }

    private static func ledger(in db: Database) throws -> EntitlementLedger {
        var ledger = EntitlementLedger()
        for row in try Row.fetchAll(db, sql: "SELECT product, transaction_id, purchase_date, expiration_date FROM owned") {
            ledger.owned[row[0]] = .init(transactionID: row[1], purchaseDate: Date(timeIntervalSince1970: row[2]),
                                         expirationDate: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
        for row in try Row.fetchAll(db, sql: "SELECT feature, product FROM unlocked") {
            ledger.unlock(row[0], by: row[1])
        }
        for row in try Row.fetchAll(db, sql: "SELECT name, amount FROM balances") {
            ledger.balances[row[0]] = row[1]
        }
        ledger.granted = Set(try String.fetchAll(db, sql: "SELECT DISTINCT transaction_id FROM grants"))
        for row in try Row.fetchAll(db, sql: "SELECT subscription, transaction_id FROM ownerships WHERE subscription IS NOT NULL") {
            ledger.periods[row[0], default: []].insert(row[1])
        }
        return ledger
    }

    /// Every transaction revoked: what the queue keeps in memory, so that
    /// an update or a step of one delivers nothing.
    func revokedTransactionIDs() throws(JournalError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT transaction_id FROM revocations")) }
    }

    /// The revoked transactions whose revocation took only a share of their
    /// grants (a prorated refund), with that share: a grant such a
    /// transaction's plan makes after it (the plan was waiting) gives what
    /// the share leaves.
    func partialRevocationShares() throws(JournalError) -> [String: Int] {
        try read { db in
            var shares: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT transaction_id, share FROM revocations WHERE share < ?",
                                        arguments: [StoreRevocation.whole]) {
                shares[row[0]] = row[1]
            }
            return shares
        }
    }

    /// Every grant kept, by transaction, as much as it adds now (a revoked
    /// one less what its revocation took): the ledger behind the balances.
    func grants() throws(JournalError) -> [(transactionID: String, balance: String, amount: Int)] {
        try read { db in
            // What each grant adds now: less what a revocation took back of it.
            try Row.fetchAll(db, sql: "SELECT transaction_id, balance, amount - taken FROM grants WHERE amount > taken ORDER BY transaction_id, balance")
                .map { (transactionID: $0[0], balance: $0[1], amount: $0[2]) }
        }
    }

    /// `app-state` records.
    func appStateRecords() throws(JournalError) -> [StoredRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT transaction_id, product, quantity, username, purchase_date FROM records ORDER BY transaction_id")
                .map { row in
                    StoredRecord(strategy: .appState, productID: row[1], value: .transaction(id: row[0], quantity: row[2]),
                                 transactionID: row[0], applicationUsername: row[3], purchaseDate: Date(timeIntervalSince1970: row[4]))
                }
        }
    }

    /// Where each product's content was put.
    func contentLocations() throws(JournalError) -> [String: ContentLocation] {
        try read { db in
            var locations: [String: ContentLocation] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT product, source, path, storage FROM content") {
                guard let source = ContentSource(rawValue: row[1]) else { continue }
                locations[row[0]] = ContentLocation(source: source, path: row[2], storage: (row[3] as String?).flatMap(ContentStorage.init(rawValue:)))
            }
            return locations
        }
    }

    /// Custom effects plugins asked to keep.
    func customEffects() throws(JournalError) -> [(transactionID: String, step: String, detail: String)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT transaction_id, step, detail FROM custom_effects ORDER BY transaction_id, step, detail")
                .map { (transactionID: $0[0], step: $0[1], detail: $0[2]) }
        }
    }

    // MARK: Writing

    /// Writes a batch in one database transaction and, once it committed,
    /// applies its delivered effects to the in-memory ledger. Returns
    /// whether the ledger changed. A `durable` commit is on the disk when
    /// this returns, whatever the journal's durability: the queue asks for
    /// one before it asks the store to finish any of the batch.
    @discardableResult
    func commit(_ batch: JournalBatch, durable: Bool, ledger: inout EntitlementLedger) throws(JournalError) -> Bool {
        if batch.isEmpty { return false }
        var changes = EntitlementLedger()
        var rechosen: [String: EntitlementLedger.Ownership?] = [:]
        var changed = false
        do {
            try write(durable: durable) { db in
                changes = EntitlementLedger()
                rechosen = [:]
                changed = false
                let upsert = try db.cachedStatement(sql: """
                    INSERT INTO dispatches (transaction_id, slot, rank, sequence, product, state, error, quantity, username, receipt,
                        signed_transaction, original_id, purchase_date, expiration_date, steps, next_step, status, attempts, retry_at,
                        last_error)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (transaction_id, slot) DO UPDATE SET steps = excluded.steps, next_step = excluded.next_step, status = excluded.status,
                        attempts = excluded.attempts, retry_at = excluded.retry_at, last_error = excluded.last_error
                    """)
                let progress = try db.cachedStatement(sql: """
                    UPDATE dispatches SET steps = ?, next_step = ?, status = ?, attempts = ?, retry_at = ?, last_error = ?
                    WHERE transaction_id = ? AND slot = ?
                    """)
                for dispatch in batch.dispatches {
                    if dispatch.isJournalled {
                        // Already written once: only its progress changes.
                        try progress.execute(arguments: [
                            dispatch.steps.joined(separator: " "), dispatch.nextStep, dispatch.status.rawValue, dispatch.attempts,
                            dispatch.retryAt?.timeIntervalSince1970, dispatch.lastError, dispatch.transaction.id, dispatch.slot,
                        ])
                        continue
                    }
                    let info = dispatch.transaction.info
                    let arguments: [(any DatabaseValueConvertible)?] = [
                        info.id, dispatch.slot, dispatch.rank, dispatch.sequence, info.productID, info.state.rawValue,
                        info.error?.rawValue, info.quantity, info.applicationUsername, info.receipt.map { Data($0) },
                        info.signedTransaction, dispatch.transaction.originalID, dispatch.transaction.purchaseDate.timeIntervalSince1970,
                        dispatch.transaction.expirationDate?.timeIntervalSince1970, dispatch.steps.joined(separator: " "),
                        dispatch.nextStep, dispatch.status.rawValue, dispatch.attempts, dispatch.retryAt?.timeIntervalSince1970,
                        dispatch.lastError,
                    ]
                    try upsert.execute(arguments: StatementArguments(arguments))
                }
                var statements = JournalEffectStatements(db)
                for (index, effect, product) in batch.effects {
                    let transaction = batch.dispatches[index].transaction
                    if try Journal.apply(effect, of: transaction, product: product, in: db, statements: &statements,
                                         partialRevocations: batch.partialRevocations, known: ledger,
                                         to: &changes, rechosen: &rechosen) { changed = true }
                }
                if !rechosen.isEmpty {
                    changed = true
                    // What the batch gave those products after they were chosen again.
                    for product in rechosen.keys where changes.owned[product] != nil {
                        rechosen[product] = try Journal.chooseOwners(of: [product], in: db)[product] ?? nil
                    }
                }
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
        for (subscription, periods) in changes.periods { ledger.periods[subscription, default: []].formUnion(periods) }
        guard changed else { return false }
        for (product, ownership) in changes.owned where rechosen[product] == nil { ledger.own(product, ownership) }
        for (product, owner) in rechosen { ledger.owned[product] = owner }
        for (feature, products) in changes.unlocked { for product in products { ledger.unlock(feature, by: product) } }
        for (balance, amount) in changes.balances { ledger.grant(balance, amount) }
        ledger.granted.formUnion(changes.granted)
        return true
    }

    /// Journals a revocation, in one database transaction: notes each of its
    /// transactions as revoked and removes what they delivered (the
    /// revocation's share of their grants, lowering each balance by as much
    /// and noting it as taken, so that a reversal gives exactly that back; the
    /// ownership, unlocked features, `app-state` records and content locations
    /// they left), then reloads the in-memory ledger from the tables. Transactions revoked before are
    /// left as they are; returns false, having changed nothing, when every
    /// one of them was. Durable in every mode: the store does not send a
    /// revocation again, so a power loss must not take it back.
    func revoke(_ revocation: StoreRevocation, ledger: inout EntitlementLedger) throws(JournalError) -> Bool {
        var reloaded: EntitlementLedger?
        do {
            try write(durable: true) { db in
                reloaded = nil
                let note = try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO revocations (transaction_id, product, reason, date, share) VALUES (?, ?, ?, ?, ?)
                    """)
                let reshare = try db.cachedStatement(sql: "UPDATE revocations SET share = ? WHERE transaction_id = ?")
                var revoked: [String] = []
                for id in revocation.transactionIDs {
                    try note.execute(arguments: [id, revocation.productID, revocation.reason.rawValue, revocation.date.timeIntervalSince1970,
                                                 revocation.share])
                    // Revoked before: what it delivered is gone already, and
                    // nothing it committed since was delivered; a grant it
                    // makes later takes the new share.
                    if db.changesCount == 1 { revoked.append(id) } else { try reshare.execute(arguments: [revocation.share, id]) }
                }
                let grants = try db.cachedStatement(sql: "SELECT balance, amount, taken FROM grants WHERE transaction_id = ?")
                let lower = try db.cachedStatement(sql: "UPDATE balances SET amount = amount - ? WHERE name = ?")
                let take = try db.cachedStatement(sql: "UPDATE grants SET taken = ? WHERE transaction_id = ? AND balance = ?")
                var changed = !revoked.isEmpty
                for id in revocation.transactionIDs {
                    // Each balance loses exactly the revocation's share of what
                    // this transaction granted (all of it but for a prorated
                    // refund or an upgrade), even if the user spent it already (it
                    // may fall below zero). The grant stays, with what was taken.
                    // Revoked before (upgraded, then refunded; a prorated refund
                    // signed again), what it takes follows the new share.
                    for row in try Row.fetchAll(grants, arguments: [id]) {
                        let balance: String = row[0]
                        let amount: Int = row[1]
                        let taken: Int = row[2]
                        let portion = revocation.portion(of: amount)
                        guard portion != taken else { continue }
                        try lower.execute(arguments: [portion - taken, balance])
                        try take.execute(arguments: [portion, id, balance])
                        changed = true
                    }
                }
                guard changed else { return }
                // Each product a revoked transaction owned passes to the best
                // ownership that stands (another purchase of it, another period
                // of its subscription), or goes.
                try Journal.chooseOwners(of: Journal.productsTouched(by: revoked, in: db), in: db)
                for id in revoked {
                    // A feature is unlocked by a product (one row, kept by the first
                    // transaction that unlocked it) for as long as the product is owned:
                    // if another transaction still owns the product (a later
                    // subscription period when an earlier one is refunded), the
                    // unlock passes to it rather than going with the revoked one.
                    try db.cachedStatement(sql: """
                        UPDATE unlocked SET transaction_id = (SELECT owned.transaction_id FROM owned WHERE owned.product = unlocked.product)
                        WHERE transaction_id = ? AND EXISTS (SELECT 1 FROM owned WHERE owned.product = unlocked.product)
                        """).execute(arguments: [id])
                    for table in ["unlocked", "records", "content"] {
                        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE transaction_id = ?").execute(arguments: [id])
                    }
                }
                // Reloaded rather than patched: the in-memory ledger does not
                // know which transaction left each row; the tables do.
                reloaded = try Journal.ledger(in: db)
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
        guard let reloaded else { return false }
        ledger = reloaded
        return true
    }

    /// Journals a reversed refund, in one database transaction: each of its
    /// transactions revoked before the version that stands again was signed
    /// is revoked no more, gets back what its revocation took of each balance,
    /// and its plans are opened again at the steps that deliver (those it had
    /// run while revoked, whose deliveries were dropped), followed by the
    /// steps it had not run yet and, if it was finished, `finish` again (the
    /// store holds the reversed version unfinished), numbered after `sequence`. The ledger is
    /// reloaded. Returns the transactions reinstated and the plans to run;
    /// nothing when none of them was revoked. Durable in every mode, as a
    /// revocation is.
    func reinstate(_ reinstatement: StoreReinstatement, after sequence: Int64,
                   ledger: inout EntitlementLedger) throws(JournalError) -> (transactionIDs: [String], dispatches: [Dispatch]) {
        var reloaded: EntitlementLedger?
        var reinstated: [String] = []
        var reopened: [Dispatch] = []
        do {
            try write(durable: true) { db in
                reloaded = nil
                reinstated = []
                reopened = []
                let forget = try db.cachedStatement(sql: "DELETE FROM revocations WHERE transaction_id = ? AND date <= ?")
                for id in reinstatement.transactionIDs {
                    try forget.execute(arguments: [id, reinstatement.signedDate.timeIntervalSince1970])
                    if db.changesCount == 1 { reinstated.append(id) }
                }
                guard !reinstated.isEmpty else { return }
                let delivering = Set(BuiltInStep.delivering.map(\.rawValue))
                for id in reinstated {
                    // Exactly what the revocation took, back to each balance.
                    try db.cachedStatement(sql: """
                        UPDATE balances SET amount = amount + (SELECT coalesce(sum(taken), 0) FROM grants
                            WHERE grants.transaction_id = ? AND grants.balance = balances.name)
                        WHERE name IN (SELECT balance FROM grants WHERE transaction_id = ? AND taken > 0)
                        """).execute(arguments: [id, id])
                    try db.cachedStatement(sql: "UPDATE grants SET taken = 0 WHERE transaction_id = ?").execute(arguments: [id])
                    // Its ownership, features, records and content come from its
                    // delivering steps, run again (a grant kept already adds
                    // nothing twice: the ledger's key).
                    let rows = try Row.fetchAll(db, sql: "SELECT * FROM dispatches WHERE transaction_id = ? AND status != ? AND state IN (?, ?)",
                                                arguments: [id, DispatchStatus.superseded.rawValue,
                                                            TransactionState.purchased.rawValue, TransactionState.restored.rawValue])
                    for row in rows {
                        guard var dispatch = Journal.dispatch(from: row) else { continue }
                        let done = dispatch.steps.prefix(dispatch.nextStep)
                        let run = done.filter { delivering.contains($0) }
                        guard !run.isEmpty else { continue }
                        let rest = Array(dispatch.steps.dropFirst(dispatch.nextStep))
                        // Finished before: finished again after, so that the store's
                        // new version (the reversal, which it holds unfinished) is too.
                        let finish = done.contains(BuiltInStep.finish.rawValue) && !rest.contains(BuiltInStep.finish.rawValue)
                        dispatch.steps = run + rest + (finish ? [BuiltInStep.finish.rawValue] : [])
                        dispatch.nextStep = 0
                        dispatch.status = .running
                        dispatch.attempts = 0
                        dispatch.retryAt = nil
                        dispatch.lastError = nil
                        dispatch.sequence = sequence + Int64(reopened.count) + 1
                        try db.cachedStatement(sql: """
                            UPDATE dispatches SET steps = ?, next_step = 0, status = ?, attempts = 0, retry_at = NULL, last_error = NULL, sequence = ?
                            WHERE transaction_id = ? AND slot = ?
                            """).execute(arguments: [dispatch.steps.joined(separator: " "), DispatchStatus.running.rawValue,
                                                     dispatch.sequence, id, dispatch.slot])
                        reopened.append(dispatch)
                    }
                }
                reloaded = try Journal.ledger(in: db)
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, error)
        }
        guard let reloaded else { return ([], []) }
        ledger = reloaded
        return (reinstated, reopened)
    }

    /// Keeps one effect; returns whether it changed what the user is entitled to.
    /// `known` is the in-memory ledger as the batch found it, `changes` what the
    /// batch added: a write they show to change nothing is not made (a restore
    /// delivers every product owned again). `rechosen` gets the products whose
    /// owner was chosen again (another product's earlier period superseded),
    /// with their owner now.
    private static func apply(_ effect: Effect, of transaction: StoreTransaction, product: ProductPolicy, in db: Database,
                              statements: inout JournalEffectStatements, partialRevocations: [String: Int], known: EntitlementLedger, to changes: inout EntitlementLedger,
                              rechosen: inout [String: EntitlementLedger.Ownership?]) throws -> Bool {
        let id = transaction.id
        switch effect {
        case .own(let productID):
            let expiration = SubscriptionTerm.expiration(of: product, bought: transaction.purchaseDate, storeExpiration: transaction.expirationDate)
            // Every ownership is kept, so that the product passes to another
            // that stands when this one's transaction is revoked.
            let subscription = product.type == .autoRenewableSubscription ? (transaction.originalID ?? id) : nil
            try statements(.noteOwnership).execute(arguments: [productID, id, subscription, transaction.purchaseDate.timeIntervalSince1970,
                                                                 expiration?.timeIntervalSince1970])
            if let subscription {
                if known.hasPeriod(of: subscription, otherThan: id) || changes.hasPeriod(of: subscription, otherThan: id) {
                    // A period a later one of its subscription superseded owns
                    // nothing (a refund of it reversed after the user subscribed
                    // again); a later period supersedes earlier ones of other levels.
                    if try isSuperseded(subscription: subscription, bought: transaction.purchaseDate, in: db) {
                        changes.periods[subscription, default: []].insert(id)
                        return false
                    }
                    let earlier = try productsOfEarlierPeriods(of: subscription, before: transaction.purchaseDate, other: productID, in: db)
                    if !earlier.isEmpty {
                        for (other, owner) in try chooseOwners(of: earlier, in: db) { rechosen[other] = owner }
                    }
                }
                changes.periods[subscription, default: []].insert(id)
            }
            let ownership = EntitlementLedger.Ownership(transactionID: id, purchaseDate: transaction.purchaseDate, expirationDate: expiration)
            // The owner the ledgers show stays when it lasts as long (a product
            // chosen again in this batch is chosen again after it, from `ownerships`).
            let standing = changes.owned[productID].map { known.owned[productID]?.merged(with: $0) ?? $0 } ?? known.owned[productID]
            if rechosen[productID] != nil || !(standing?.outlasts(ownership) ?? false) {
                try statements(.own).execute(arguments: [productID, id, transaction.purchaseDate.timeIntervalSince1970,
                                                         expiration?.timeIntervalSince1970])
            }
            changes.own(productID, ownership)
            return true
        case .unlock(let feature):
            // Unlocked by this product before: the row (and its transaction) stays.
            if !(known.unlocked[feature]?.contains(product.id) ?? false) && !(changes.unlocked[feature]?.contains(product.id) ?? false) {
                try statements(.unlock).execute(arguments: [feature, product.id, id])
            }
            changes.unlock(feature, by: product.id)
            return true
        case .grant(let balance, let amount):
            // A transaction refunded in part before this grant: the refund's share is taken at once.
            let taken = partialRevocations.isEmpty ? 0 : partialRevocations[id].map { StoreRevocation.portion(of: amount, share: $0) } ?? 0
            try statements(.grant).execute(arguments: [id, balance, amount, taken])
            guard db.changesCount == 1 else { return false }
            try statements(.addToBalance).execute(arguments: [balance, amount - taken])
            changes.grant(balance, amount - taken, transaction: id)
            return true
        case .record(let record):
            guard record.strategy == .appState else { return false }
            let quantity: Int
            if case .transaction(_, let recorded) = record.value { quantity = recorded } else { quantity = transaction.info.quantity }
            try statements(.record).execute(arguments: [id, record.key, quantity, transaction.info.applicationUsername, transaction.purchaseDate.timeIntervalSince1970])
            return false
        case .content(let location):
            try statements(.content).execute(arguments: [product.id, location.source.rawValue, location.path, location.storage?.rawValue, id])
            return false
        case .custom(let step, let detail):
            try statements(.custom).execute(arguments: [id, step, detail])
            return false
        case .receiptVerified, .notify, .presentError, .finish:
            return false
        }
    }

    // MARK: Rows

    private static func dispatch(from row: Row) -> Dispatch? {
        guard let state = TransactionState(rawValue: row["state"]),
              let status = DispatchStatus(rawValue: row["status"])
        else { return nil }
        let receipt: Data? = row["receipt"]
        let info = TransactionInfo(id: row["transaction_id"], productID: row["product"], state: state,
                                   error: (row["error"] as String?).flatMap(StoreErrorCode.init(rawValue:)),
                                   quantity: row["quantity"], applicationUsername: row["username"], receipt: receipt.map { [UInt8]($0) },
                                   signedTransaction: row["signed_transaction"])
        let transaction = StoreTransaction(info, originalID: row["original_id"],
                                           purchaseDate: Date(timeIntervalSince1970: row["purchase_date"]),
                                           expirationDate: (row["expiration_date"] as Double?).map(Date.init(timeIntervalSince1970:)))
        let steps: String = row["steps"]
        return Dispatch(transaction: transaction, slot: row["slot"], sequence: row["sequence"],
                        steps: steps.split(separator: " ").map(String.init), nextStep: row["next_step"], status: status,
                        attempts: row["attempts"], retryAt: (row["retry_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                        lastError: row["last_error"], isJournalled: true)
    }

    /// Makes every commit so far durable, whatever the journal's durability
    /// (under `.appCrash` a checkpoint, which flushes the WAL first): for
    /// when the queue is about to tell the store to finish a transaction
    /// the journal says is done.
    func makeDurable() throws(JournalError) {
        guard durability != .full else { return }
        try watch()
        do {
            try database.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        } catch {
            throw JournalError(path: path, error)
        }
        try watch()
    }

    /// Runs `body` in one database transaction, on the file the queue opened.
    /// A durable write under `.appCrash` commits with `synchronous=FULL`,
    /// which flushes the WAL (and so every commit before it) to the disk.
    func write(durable: Bool, _ body: (Database) throws -> Void) throws {
        try watch()
        let raised = durable && durability != .full
        try database.writeWithoutTransaction { db in
            if raised { try db.execute(sql: "PRAGMA synchronous = FULL") }
            // Left at FULL if putting it back fails: safer than the other way.
            defer { if raised { try? db.execute(sql: "PRAGMA synchronous = NORMAL") } }
            try db.inTransaction {
                try body(db)
                return .commit
            }
        }
        // Again after the commit, to learn the size a checkpoint grew the file to.
        try watch()
    }

    /// Throws unless the file at `path` is still the one opened, no shorter
    /// than it was: a journal removed, replaced or cut short while open is
    /// neither read nor written, so that nothing is written over what remains.
    private func watch() throws(JournalError) {
        try opened.withLock { (state: inout JournalFile.Opened?) throws(JournalError) in
            guard let opened = state else {
                throw JournalError(path: path, kind: .closed,
                                   message: "the journal was closed when its queue stopped: make a new queue (as a new launch does) to use it")
            }
            state = try JournalFile.verify(path, opened: opened)
            try lock.verify(journalPath: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try watch()
        do {
            // `inDatabase`, not `read`: a read toggles `query_only`, which
            // expires every cached statement (measured: 32 against 7 µs a lookup).
            return try database.inDatabase(body)
        } catch {
            throw JournalError(path: path, error)
        }
    }
}

extension JournalError {
    /// Says in a sentence what SQLite's error means for the journal.
    init(path: String, _ error: any Error) {
        guard let error = error as? DatabaseError else {
            self.init(path: path, kind: .io, message: "the journal could not be used: \(error)")
            return
        }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            self.init(path: path, kind: .notADatabase,
                      message: "this file is not an SQLite database, so not a Storekeeper journal; it was left as it is: give the queue another path, or move the file aside")
        case .SQLITE_CORRUPT:
            self.init(path: path, kind: .corrupt,
                      message: "the journal is damaged (\(error.message ?? "corrupt")); it was left as it is: move it aside or restore it from a backup")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            self.init(path: path, kind: .unreadable, message: "the journal cannot be opened (\(error.message ?? "cannot open")): check that the path exists and the app may read and write it")
        case .SQLITE_READONLY:
            self.init(path: path, kind: .readOnly, message: "the journal can be read but not written (\(error.message ?? "read-only")): the queue needs to write it")
        case .SQLITE_FULL:
            self.init(path: path, kind: .io, message: "the disk is full: nothing of this batch was committed; the queue tries again")
        default:
            self.init(path: path, kind: .io, message: "the journal could not be used: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
        }
    }
}
