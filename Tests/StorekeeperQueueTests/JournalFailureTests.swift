import StorekeeperCatalog
import StorekeeperChildProcess
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPlatform
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperTestSupport
import Foundation
import GRDB
import Testing

/// A journal that cannot be used gives a clear error naming its path and
/// is left exactly as it was: nothing committed is lost, nothing is
/// replaced, repaired or deleted.
@Suite struct JournalFailureTests {
    typealias H = DeliveryHarness

    @Test(arguments: [JournalFailureTests.Garbage.random, .text])
    func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas(_ garbage: Garbage) throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let bytes = garbage.bytes
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let error = try #require(try Self.openingError(path), "a file that is not a database must not open")
        #expect(error.kind == .notADatabase)
        #expect(error.path == path)
        #expect(error.description.contains(path), "the message names the file: \(error)")
        #expect(error.message.contains("not an SQLite database"), "\(error.message)")
        let after = try Self.bytes(path)
        #expect(after == bytes, "the file is left as it was: \(Self.differences(bytes, after))")
        #expect(Self.sideFiles(of: path).isEmpty, "no journal files were created beside it: \(Self.sideFiles(of: path))")
    }

    @Test func aJournalDamagedInItsMiddlePagesIsCorruptAndLeftAsItWas() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let committed = try await Self.writeJournal(at: path, purchases: 300)
        let pristine = try Self.bytes(path)
        let pageSize = Self.pageSize(of: pristine)
        let pages = pristine.count / pageSize
        try #require(pages >= 12, "the journal has \(pages) pages")
        var damaged = pristine
        var random = SplitMix64(seed: 0x5EED)
        for index in (pages / 3 * pageSize)..<(2 * pages / 3 * pageSize) { damaged[index] = random.nextByte() }
        try Data(damaged).write(to: URL(fileURLWithPath: path))

        let error = try #require(try Self.openingError(path), "a damaged journal must not open")
        #expect(error.kind == .corrupt, "\(error)")
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.message.contains("damaged"), "\(error.message)")
        let after = try Self.bytes(path)
        #expect(after == damaged, "the damaged file is left as it was, for a person to look at: \(Self.differences(damaged, after))")

        // Nothing committed was lost: the journal as it was opens with everything in it.
        let copy = folder.appendingPathComponent("restored.sqlite").path
        try Data(pristine).write(to: URL(fileURLWithPath: copy))
        #expect(try await Self.read(copy) == committed)
    }

    // MARK: Emptied or cut short: never taken for a new journal

    @Test(arguments: JournalFailureTests.Leftover.allCases)
    func anEmptiedJournalIsAnErrorAndNeverANewJournal(_ leftover: Leftover) async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        // A WAL as the queue leaves it while running (SQLite deletes one found beside an empty database).
        let wal = try await Self.withQueue(path) { queue, store, _ in
            let coins = try H.consumable(in: queue.policy)
            for index in 0..<20 { await store.send(H.transaction("c\(index)", coins, .purchased)) }
            try await H.eventually { await queue.whenIdle(); return await store.unfinished.isEmpty }
            return try Self.bytes(path + "-wal")
        }
        try #require(!wal.isEmpty)
        try Data().write(to: URL(fileURLWithPath: path))
        if leftover == .writeAheadLog { try Data(wal).write(to: URL(fileURLWithPath: path + "-wal")) }

        for attempt in 1...2 {
            let error = try #require(try Self.openingError(path), "an emptied journal must not open as a new one (attempt \(attempt))")
            #expect(error.kind == .empty, "\(error)")
            #expect(error.path == path)
            #expect(error.description.contains(path), "the message names the file: \(error)")
            for words in ["empty", "restore it from a backup", "delete it deliberately"] {
                #expect(error.message.contains(words), "the message says what is wrong and what to do: \(error.message)")
            }
            #expect(try Self.bytes(path).isEmpty, "the file is left empty, not initialised")
            if leftover == .writeAheadLog {
                #expect(try Self.bytes(path + "-wal") == wal, "the WAL beside it is left as it was")
            }
            #expect(Self.sideFiles(of: path) == (leftover == .writeAheadLog ? [path + "-wal"] : []), "\(Self.sideFiles(of: path))")
        }
    }

    @Test func aJournalRemovedWithoutItsWALIsNotStartedAfresh() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let wal = try await Self.withQueue(path) { queue, store, _ in
            let coins = try H.consumable(in: queue.policy)
            for index in 0..<20 { await store.send(H.transaction("c\(index)", coins, .purchased)) }
            try await H.eventually { await queue.whenIdle(); return await store.unfinished.isEmpty }
            return try Self.bytes(path + "-wal")
        }
        try #require(!wal.isEmpty)
        try FileManager.default.removeItem(atPath: path)
        try Data(wal).write(to: URL(fileURLWithPath: path + "-wal"))

        let error = try #require(try Self.openingError(path), "a new journal must not be started over a stale WAL")
        #expect(error.kind == .replaced, "\(error)")
        #expect(error.message.contains(path + "-wal"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: path), "no journal was created")
        #expect(try Self.bytes(path + "-wal") == wal, "the WAL is left as it was")
    }

    /// A journal, its -wal and its -shm as a crash leaves them (copied while
    /// the queue still has them open, after 20 purchases), and the balances
    /// the queue had then.
    static func crashedJournal() async throws -> (path: String, balances: [String: Int]) {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let crashed = folder.appendingPathComponent("crashed", isDirectory: true)
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        let copy = crashed.appendingPathComponent("journal.sqlite").path
        // The journal, its -wal and its -shm as a crash leaves them: copied while the queue still has them open.
        let balances = try await Self.withQueue(path) { queue, store, _ in
            let coins = try H.consumable(in: queue.policy)
            for index in 0..<20 { await store.send(H.transaction("c\(index)", coins, .purchased)) }
            try await H.eventually { await queue.whenIdle(); return await store.unfinished.isEmpty }
            for suffix in ["", "-wal", "-shm"] { try Data(try Self.bytes(path + suffix)).write(to: URL(fileURLWithPath: copy + suffix)) }
            return await queue.entitlements().balances
        }
        return (copy, balances)
    }

    @Test(arguments: JournalFailureTests.LostLog.allCases)
    func aCrashedJournalWhoseWALWasLostIsAnErrorNotTheJournalAtItsLastCheckpoint(_ lost: LostLog) async throws {
        let (copy, balances) = try await Self.crashedJournal()
        try #require(try Self.bytes(copy + "-wal").count > 32, "the crash left commits in the WAL")
        switch lost {
        case .emptied: try Data().write(to: URL(fileURLWithPath: copy + "-wal"))
        case .removed: try FileManager.default.removeItem(atPath: copy + "-wal")
        case .halved: try Data(try Self.bytes(copy + "-wal").prefix(try Self.bytes(copy + "-wal").count / 2)).write(to: URL(fileURLWithPath: copy + "-wal"))
        case .garbage: try Data(JournalFailureTests.Garbage.random.bytes + JournalFailureTests.Garbage.random.bytes + JournalFailureTests.Garbage.random.bytes
                                 + Array(repeating: 0, count: try Self.bytes(copy + "-wal").count)).write(to: URL(fileURLWithPath: copy + "-wal"))
        }
        let before = try Self.bytes(copy)
        let index = try Self.bytes(copy + "-shm")
        let log = lost == .removed ? nil : try Self.bytes(copy + "-wal")

        for attempt in 1...2 {
            let error = try #require(try Self.openingError(copy), "a journal whose WAL was lost must not open at its last checkpoint (attempt \(attempt))")
            #expect(error.kind == .truncated, "\(error)")
            #expect(error.path == copy)
            #expect(error.message.contains(copy + "-wal") && error.message.contains(copy + "-shm"), "names both files: \(error.message)")
            #expect(error.message.contains("put back"), "says what to do: \(error.message)")
            #expect(try Self.bytes(copy) == before, "the journal is left as it was")
            #expect(try Self.bytes(copy + "-shm") == index, "the index is left as it was")
            #expect((lost == .removed ? nil : try Self.bytes(copy + "-wal")) == log, "the WAL is left as it was")
        }
        // Deleting the index deliberately accepts the loss, as the message says.
        try FileManager.default.removeItem(atPath: copy + "-shm")
        let reopened = try await Self.read(copy)
        #expect(reopened.entitlements.balances != balances, "the commits in the WAL are the ones lost")
    }

    @Test func aCrashedJournalWithItsWALOpensWithEverythingCommitted() async throws {
        let (copy, balances) = try await Self.crashedJournal()
        #expect(try await Self.read(copy).entitlements.balances == balances)
    }

    @Test func whatACrashWhileCreatingAJournalLeftIsClearedAndTheJournalMadeWhole() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        // A journal being built under its own name when the app died: never at the journal's path.
        for suffix in [".new", ".new-journal"] { try Data("half a journal".utf8).write(to: URL(fileURLWithPath: path + suffix)) }

        #expect(try Self.openingError(path) == nil)
        #expect(!FileManager.default.fileExists(atPath: path + ".new"))
        #expect(!FileManager.default.fileExists(atPath: path + ".new-journal"))
        #expect(try await Self.read(path).entitlements == Entitlements(), "a new, empty journal")
    }

    @Test(arguments: JournalFailureTests.Cut.allCases)
    func aJournalCutShortIsAnErrorAndLeftAsItWas(_ cut: Cut) async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        _ = try await Self.writeJournal(at: path, purchases: 300)
        let pristine = try Self.bytes(path)
        let pageSize = Self.pageSize(of: pristine)
        try #require(pristine.count >= 12 * pageSize)
        let truncated = Array(pristine.prefix(cut.length(of: pristine.count, pageSize: pageSize)))
        try Data(truncated).write(to: URL(fileURLWithPath: path))

        let error = try #require(try Self.openingError(path), "a journal cut short must not open")
        #expect(error.kind == .truncated, "\(error)")
        #expect(error.path == path)
        #expect(error.message.contains("cut short") && error.message.contains("\(truncated.count) bytes"), "\(error.message)")
        let after = try Self.bytes(path)
        #expect(after == truncated, "the file is left as it was: \(Self.differences(truncated, after))")
        #expect(Self.sideFiles(of: path).isEmpty, "\(Self.sideFiles(of: path))")
    }

    @Test func anSQLiteDatabaseWithNoTablesIsNotTakenForANewJournal() throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let database = try DatabaseQueue(path: path)
        try database.write { db in try db.execute(sql: "PRAGMA user_version = 7") }
        try database.close()
        let before = try Self.bytes(path)
        try #require(!before.isEmpty)

        let error = try #require(try Self.openingError(path), "an existing database with no tables must not become a journal")
        #expect(error.kind == .empty, "\(error)")
        #expect(error.message.contains("no tables"), "\(error.message)")
        #expect(try Self.bytes(path) == before)
    }

    @Test(arguments: JournalFailureTests.Mishap.allCases)
    func aJournalDamagedWhileTheQueueRunsStopsItsCommitsAndIsNeverStartedAfresh(_ mishap: Mishap) async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let policy = try QueueFixtures.example("rocket-racer")
        let coins = try H.consumable(in: policy)
        let store = ScriptedStore()
        let log = EventLog()
        let queue = try TransactionQueue(policy: policy, store: store, configuration: Self.configuration(path))
        try await queue.start(observers: [log])
        for index in 0..<20 { await store.send(H.transaction("before-\(index)", coins, .purchased)) }
        try await H.eventually { await queue.whenIdle(); return await store.unfinished.isEmpty }
        let finishes = await store.finishCalls
        let size = try Self.bytes(path).count
        try #require(size > 0)

        switch mishap {
        case .emptied:
            try #require(truncate(path, 0) == 0)
        case .cutShort:
            try #require(truncate(path, off_t(size / 2)) == 0)
        case .zeroed:
            // Same inode, same size: only the bytes say it is no longer the journal.
            try #require(truncate(path, 0) == 0 && truncate(path, off_t(size)) == 0)
        case .removed:
            try #require(unlink(path) == 0)
        case .replaced:
            try Data(try Self.bytes(path)).write(to: URL(fileURLWithPath: path + ".copy"))
            try #require(rename(path + ".copy", path) == 0)
        }
        await store.send(H.transaction("after", coins, .purchased))
        try await H.eventually { await log.events.contains { if case .journalFailed = $0 { true } else { false } } }
        let failure = try #require(await log.events.compactMap { if case .journalFailed(let error) = $0 { error } else { nil } }.first)
        #expect(failure.kind == mishap.kind, "\(failure)")
        #expect(failure.path == path)
        #expect(failure.message.contains("while the queue had it open"), "\(failure.message)")
        #expect(await store.finishCalls == finishes, "nothing is finished once the journal is damaged")
        #expect(await store.unfinished.keys.sorted() == ["after"], "the store keeps it, to deliver it again")
        await queue.stop()

        // An emptied or shortened journal is refused at the next launch, never started afresh.
        if mishap == .emptied || mishap == .cutShort || mishap == .zeroed {
            let error = try #require(try Self.openingError(path), "a journal damaged while it ran must not open afterwards")
            #expect([.empty, .truncated, .corrupt, .notADatabase].contains(error.kind), "\(error)")
        }
    }

    @Test func aJournalInAFolderThatDoesNotExistIsUnreadableAndNoFolderIsCreated() throws {
        let folder = try QueueFixtures.folder().appendingPathComponent("no-such-folder", isDirectory: true)
        let path = folder.appendingPathComponent("journal.sqlite").path
        let error = try #require(try Self.openingError(path))
        #expect(error.kind == .unreadable)
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.message.contains(folder.path), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test(.enabled(if: getuid() != 0, "root writes read-only files regardless of their permissions"))
    func aReadOnlyJournalGivesAnErrorNotACrash() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        _ = try await Self.writeJournal(at: path, purchases: 5)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        let before = try Self.bytes(path)

        if let error = try Self.openingError(path) {
            #expect([.readOnly, .unreadable].contains(error.kind), "\(error)")
            #expect(error.path == path)
        } else {
            // Opened for reading: the first write must say it cannot write, and nothing is delivered.
            let policy = try QueueFixtures.example("rocket-racer")
            let coins = try H.consumable(in: policy)
            let store = ScriptedStore()
            let log = EventLog()
            let queue = try TransactionQueue(policy: policy, store: store, configuration: Self.configuration(path))
            try await queue.start(observers: [log])
            await store.send(H.transaction("after-chmod", coins, .purchased))
            try await H.eventually { await log.events.contains { if case .journalFailed = $0 { true } else { false } } }
            let failure = await log.events.compactMap { if case .journalFailed(let error) = $0 { error } else { nil } }.first
            #expect(failure?.kind == .readOnly, "\(String(describing: failure))")
            #expect(await store.finishCalls == 0)
            await queue.stop()
        }
        #expect(try Self.bytes(path) == before)
    }

    @Test(.enabled(if: JournalFailureTests.sqlite3 != nil, "needs the sqlite3 command-line tool"))
    func anotherAppsDatabaseIsForeignAndLeftAsItWas() throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("notes.sqlite").path
        try Self.sqlite(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');")
        let dump = try Self.sqlite(path, ".dump")
        #expect(try Self.sqlite(path, "PRAGMA journal_mode;") == "delete")

        let error = try #require(try Self.openingError(path), "another app's database must not open as a journal")
        #expect(error.kind == .foreign)
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.message.contains("notes"), "the message names what is in it: \(error.message)")
        #expect(try Self.sqlite(path, ".dump") == dump, "its tables and rows are as they were")
        #expect(Self.sideFiles(of: path).isEmpty, "no journal files were left beside it: \(Self.sideFiles(of: path))")
        // Refusing the file must not change it: the other app chose its journal mode.
        #expect(try Self.sqlite(path, "PRAGMA journal_mode;") == "delete", "the other app's database was switched to WAL mode")
    }

    @Test(.enabled(if: JournalFailureTests.sqlite3 != nil, "needs the sqlite3 command-line tool"))
    func aJournalOfANewerVersionIsRefusedAndLeftAsItWas() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let committed = try await Self.writeJournal(at: path, purchases: 5)
        try Self.sqlite(path, "UPDATE meta SET value = '\(JournalSchema.version + 1)' WHERE key = 'version';")
        let dump = try Self.sqlite(path, ".dump")

        let error = try #require(try Self.openingError(path))
        #expect(error.kind == .foreign)
        #expect(error.message.contains("version \(JournalSchema.version + 1)"), "\(error.message)")
        #expect(try Self.sqlite(path, ".dump") == dump, "the newer journal's tables and rows are as they were")
        // Put back as this build wrote it, it opens with everything in it.
        try Self.sqlite(path, "UPDATE meta SET value = '\(JournalSchema.version)' WHERE key = 'version';")
        #expect(try await Self.read(path) == committed)
    }

    @Test(.enabled(if: JournalFailureTests.sqlite3 != nil, "needs the sqlite3 command-line tool"))
    func aRefusedJournalWithAWALKeepsItsBytesAndItsWAL() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let committed = try await Self.writeJournal(at: path, purchases: 5)
        // The newer version committed to the WAL only, as an app killed after the commit leaves it.
        try Self.sqlite(path, ".dbconfig no_ckpt_on_close on",
                        "PRAGMA wal_autocheckpoint = 0; UPDATE meta SET value = '\(JournalSchema.version + 1)' WHERE key = 'version';")
        let before = try Self.bytes(path)
        let wal = try Self.bytes(path + "-wal")
        try #require(!wal.isEmpty, "the version is in the WAL")

        for attempt in 1...2 {
            let error = try #require(try Self.openingError(path), "attempt \(attempt)")
            #expect(error.kind == .foreign, "\(error)")
            #expect(error.message.contains("version \(JournalSchema.version + 1)"), "\(error.message)")
            let after = try Self.bytes(path)
            #expect(after == before, "the journal was not checkpointed: \(Self.differences(before, after))")
            #expect(FileManager.default.fileExists(atPath: path + "-wal") && (try? Self.bytes(path + "-wal")) == wal, "the WAL is left as it was")
        }
        // Put back as this build wrote it, it opens with everything in it.
        try Self.sqlite(path, "UPDATE meta SET value = '\(JournalSchema.version)' WHERE key = 'version';")
        #expect(try await Self.read(path) == committed)
    }

    @Test func aRefusedJournalWithoutAWALGetsNoneLeftBesideIt() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        _ = try await Self.writeJournal(at: path, purchases: 5)
        let database = try DatabaseQueue(path: path)
        try await database.write { db in try db.execute(sql: "UPDATE meta SET value = '\(JournalSchema.version + 1)' WHERE key = 'version'") }
        try database.close()
        try #require(Self.sideFiles(of: path).isEmpty)
        let before = try Self.bytes(path)

        let error = try #require(try Self.openingError(path))
        #expect(error.kind == .foreign, "\(error)")
        #expect(try Self.bytes(path) == before)
        #expect(Self.sideFiles(of: path).isEmpty, "the inspection's own -wal and -shm are gone: \(Self.sideFiles(of: path))")
    }

    @Test func aValidJournalReopenedAfterTheQueueStoppedKeepsEverythingCommitted() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let committed = try await Self.writeJournal(at: path, purchases: 40)
        #expect(!committed.entitlements.balances.isEmpty)
        #expect(!committed.entitlements.ownedProducts.isEmpty)
        #expect(!committed.pending.isEmpty, "a halted transaction is part of what must survive")
        let first = try await Self.read(path)
        #expect(first == committed)
        // And again: reading does not change what is there.
        #expect(try await Self.read(path) == committed)
    }

    // MARK: Helpers

    /// What is beside a journal that was emptied.
    enum Leftover: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case nothing, writeAheadLog
        var testDescription: String { rawValue }
    }

    /// What became of a crashed journal's WAL.
    enum LostLog: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case emptied, removed, halved, garbage
        var testDescription: String { rawValue }
    }

    /// Where a journal is cut.
    enum Cut: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// One byte: less than SQLite's header.
        case oneByte
        /// Within SQLite's 100-byte header.
        case withinTheHeader
        /// Past the header, within the first page (SQLite would take it for a new database).
        case withinTheFirstPage
        /// In the middle of a page.
        case midPage
        /// At a page boundary, half the pages gone.
        case halfThePages

        func length(of size: Int, pageSize: Int) -> Int {
            switch self {
            case .oneByte: 1
            case .withinTheHeader: 64
            case .withinTheFirstPage: 1_000
            case .midPage: 3 * pageSize + pageSize / 2
            case .halfThePages: size / pageSize / 2 * pageSize
            }
        }

        var testDescription: String { rawValue }
    }

    /// What happens to a journal while its queue runs.
    enum Mishap: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case emptied, cutShort, zeroed, removed, replaced
        /// The error that says so.
        var kind: JournalError.Kind {
            switch self {
            case .emptied, .cutShort, .zeroed: .truncated
            case .removed, .replaced: .replaced
            }
        }
        var testDescription: String { rawValue }
    }

    enum Garbage: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case random, text
        var bytes: [UInt8] {
            switch self {
            case .random:
                var random = SplitMix64(seed: 42)
                var bytes = (0..<8192).map { _ in random.nextByte() }
                bytes[0] = UInt8(ascii: "X")   // whatever else, not SQLite's header
                return bytes
            case .text:
                return Array(String(repeating: "These are my notes, not a database.\n", count: 40).utf8)
            }
        }
        var testDescription: String { rawValue }
    }

    /// What a journal holds, as the queue reports it.
    struct Committed: Equatable {
        var entitlements: Entitlements
        var grants: [String]
        var appState: [StoredRecord]
        var content: [String: ContentLocation]
        var custom: [String]
        var pending: [String]
    }

    static func configuration(_ path: String) -> QueueConfiguration {
        var configuration = QueueFixtures.configuration(URL(fileURLWithPath: path).deletingLastPathComponent())
        configuration.journalPath = path
        return configuration
    }

    /// The error opening a queue on the journal at `path` gives, if any.
    static func openingError(_ path: String) throws -> JournalError? {
        let policy = try QueueFixtures.example("rocket-racer")
        do {
            _ = try TransactionQueue(policy: policy, store: ScriptedStore(), configuration: configuration(path))
            return nil
        } catch {
            return error
        }
    }

    /// Writes a journal with `purchases` consumable purchases, a purchase of
    /// each kept product, and one transaction halted for a product the
    /// catalog does not sell; closes it and returns what it holds.
    static func writeJournal(at path: String, purchases: Int) async throws -> Committed {
        let committed = try await withQueue(path) { queue, store, log in
            let policy = queue.policy
            let consumables = policy.products.filter { $0.type == .consumable && $0.persistence == .appState }
            try #require(!consumables.isEmpty)
            for index in 0..<purchases {
                let product = consumables[index % consumables.count]
                await store.send(H.transaction("c\(index)", product, .purchased, quantity: 1 + index % product.maxQuantity))
            }
            for product in policy.products where product.type != .consumable && product.persistence == .receipt && product.content == nil {
                await store.send(H.transaction("k-\(product.id)", product, .purchased))
            }
            let retired = ProductPolicy(id: "com.example.retired", type: .nonConsumable, delivery: .builtIn, persistence: .receipt, restore: .none)
            await store.send(H.transaction("retired", retired, .purchased))
            try await H.eventually(timeout: .seconds(30)) {
                await queue.whenIdle()
                let pending = await queue.pending().count
                let unfinished = await store.unfinished.keys.sorted()
                return pending == 1 && unfinished == ["retired"]
            }
            _ = log
            return try await snapshot(queue)
        }
        try await H.eventually { !FileManager.default.fileExists(atPath: path + "-wal") }
        return committed
    }

    /// What the journal at `path` holds, read by a new queue (a new launch).
    static func read(_ path: String) async throws -> Committed {
        try await withQueue(path) { queue, _, _ in try await snapshot(queue) }
    }

    /// Runs `body` with a started queue on the journal at `path`, then stops it and lets it go (closing the database).
    static func withQueue<T>(_ path: String, _ body: (TransactionQueue, ScriptedStore, EventLog) async throws -> T) async throws -> T {
        let store = ScriptedStore()
        let log = EventLog()
        var queue: TransactionQueue? = try TransactionQueue(policy: QueueFixtures.example("rocket-racer"), store: store,
                                                            configuration: configuration(path))
        try await queue?.start(observers: [log])
        let result = try await body(try #require(queue), store, log)
        await queue?.stop()
        queue = nil
        return result
    }

    static func snapshot(_ queue: TransactionQueue) async throws -> Committed {
        await queue.whenIdle()
        return Committed(entitlements: await queue.entitlements(),
                         grants: try await queue.grantLedger().map { "\($0.transactionID) \($0.balance) \($0.amount)" },
                         appState: try await queue.appStateRecords(),
                         content: try await queue.contentLocations(),
                         custom: try await queue.customEffects().map { "\($0.transactionID) \($0.step) \($0.detail)" },
                         pending: await queue.pending().map { "\($0.transaction.id) \($0.status) \($0.step ?? "-")" })
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Where two files differ, for messages: the size, and the first offsets with their bytes.
    static func differences(_ before: [UInt8], _ after: [UInt8]) -> String {
        let offsets = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(8)
        return "\(before.count) → \(after.count) bytes; " + offsets.map { "[\($0.offset)] \($0.element.0) → \($0.element.1)" }.joined(separator: ", ")
    }

    /// The `-wal`, `-shm` and `-journal` files beside a database, if any.
    static func sideFiles(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The page size an SQLite header gives.
    static func pageSize(of bytes: [UInt8]) -> Int {
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        return size == 1 ? 65_536 : size
    }

    /// The sqlite3 command-line tool, if installed.
    static let sqlite3: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs SQL with the sqlite3 tool; returns what it printed, trimmed.
    @discardableResult
    static func sqlite(_ path: String, _ commands: String...) throws -> String {
        let sql = commands.joined(separator: " ")
        let run = try ChildProcess(
            try #require(sqlite3), [path] + commands, standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
        ).run(timeout: .seconds(120))
        let text = String(decoding: run.standardOutput + run.standardError, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(run.termination == .exited(0), "sqlite3 \(sql): \(text)")
        return text
    }

}
