import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// One queue per journal: a second opener, in this process or another, is
/// refused with an error naming the journal, and the first goes on as if
/// nothing happened; the journal is free again once the first is stopped
/// or let go.
@Suite struct JournalLockTests {
    typealias H = DeliveryHarness

    @Test func aSecondQueueOnAJournalInUseIsRefusedAndTheFirstGoesOn() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let policy = try QueueFixtures.example("rocket-racer")
        let coins = try H.consumable(in: policy)
        let store = ScriptedStore()
        let log = EventLog()
        // A new journal: the race on a new file is the one that failed with "table meta already exists".
        let first = try TransactionQueue(policy: policy, store: store, configuration: JournalFailureTests.configuration(path))
        try await first.start(observers: [log])
        await store.send(H.transaction("a", coins, .purchased))
        try await H.eventually { await first.whenIdle(); return await store.unfinished.isEmpty }

        for attempt in 1...2 {
            let error = try #require(try JournalFailureTests.openingError(path), "a second queue must not open a journal in use (attempt \(attempt))")
            #expect(error.kind == .inUse, "\(error)")
            #expect(error.path == path)
            #expect(error.description.contains(path), "\(error)")
            #expect(error.message.contains("in use") && error.message.contains(path + ".lock"), "\(error.message)")
        }

        // The first goes on; its balances are its own, whole.
        await store.send(H.transaction("b", coins, .purchased))
        try await H.eventually { await first.whenIdle(); return await store.unfinished.isEmpty }
        let balances = await first.entitlements().balances
        for grant in coins.grants { #expect(balances[grant.balance] == grant.amount * 2) }
        await first.stop()

        // Stopped, it lets the journal go: the next queue opens it with everything committed.
        let reopened = try await JournalFailureTests.read(path)
        #expect(reopened.entitlements.balances == balances)
        #expect(reopened.grants.count == 2 * coins.grants.count)
    }

    @Test(arguments: [false, true])
    func aJournalReachedThroughASymbolicLinkSharesItsLock(_ linkTheFolder: Bool) throws {
        let folder = try QueueFixtures.folder()
        let first = folder.appendingPathComponent("LA", isDirectory: true)
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        let path = first.appendingPathComponent("journal.sqlite").path
        let held = try TransactionQueue(policy: QueueFixtures.example("rocket-racer"), store: ScriptedStore(),
                                        configuration: JournalFailureTests.configuration(path))
        let other: String
        if linkTheFolder {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("LB").path, withDestinationPath: "LA")
            other = folder.appendingPathComponent("LB/journal.sqlite").path
        } else {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("LB"), withIntermediateDirectories: true)
            other = folder.appendingPathComponent("LB/journal.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: "../LA/journal.sqlite")
        }

        let error = try #require(try JournalFailureTests.openingError(other), "another path to a journal in use must not open it")
        #expect(error.kind == .inUse, "\(error)")
        #expect(error.path == other)
        #expect(error.message.contains(path + ".lock"), "names the lock of the real journal: \(error.message)")
        _ = held
    }

    @Test func aJournalWithASecondNameIsRefused() throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        #expect(try JournalFailureTests.openingError(path) == nil)
        let other = folder.appendingPathComponent("other.sqlite").path
        try #require(link(path, other) == 0)
        let before = try JournalFailureTests.bytes(path)

        for name in [path, other] {
            let error = try #require(try JournalFailureTests.openingError(name), "a hard-linked journal must not open as \(name)")
            #expect(error.kind == .hardLinked, "\(error)")
            #expect(error.path == name)
            #expect(error.message.contains("remove the other links"), "\(error.message)")
        }
        #expect(try JournalFailureTests.bytes(path) == before)
        try #require(unlink(other) == 0)
        #expect(try JournalFailureTests.openingError(path) == nil, "with one name again, it opens")
    }

    @Test(arguments: JournalLockTests.LockMishap.allCases)
    func aQueueWhoseLockFileIsRemovedOrReplacedStopsCommitting(_ mishap: LockMishap) async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let policy = try QueueFixtures.example("rocket-racer")
        let coins = try H.consumable(in: policy)
        let store = ScriptedStore()
        let log = EventLog()
        let queue = try TransactionQueue(policy: policy, store: store, configuration: JournalFailureTests.configuration(path))
        try await queue.start(observers: [log])
        await store.send(H.transaction("before", coins, .purchased))
        try await H.eventually { await queue.whenIdle(); return await store.unfinished.isEmpty }
        let finishes = await store.finishCalls

        try #require(unlink(path + ".lock") == 0)
        if mishap == .replaced { try Data().write(to: URL(fileURLWithPath: path + ".lock")) }
        await store.send(H.transaction("after", coins, .purchased))
        try await H.eventually { await log.events.contains { if case .journalFailed = $0 { true } else { false } } }
        let failure = try #require(await log.events.compactMap { if case .journalFailed(let error) = $0 { error } else { nil } }.first)
        #expect(failure.kind == .inUse, "\(failure)")
        #expect(failure.message.contains(path + ".lock") && failure.message.contains("removed or replaced"), "\(failure.message)")
        #expect(await store.finishCalls == finishes, "nothing is finished once the lock is lost")
        await queue.stop()
    }

    enum LockMishap: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case removed, replaced
        var testDescription: String { rawValue }
    }

    @Test func aQueueLetGoWithoutStoppingReleasesTheJournal() throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        var first: TransactionQueue? = try TransactionQueue(policy: QueueFixtures.example("rocket-racer"), store: ScriptedStore(),
                                                            configuration: JournalFailureTests.configuration(path))
        #expect(first != nil)
        #expect(try JournalFailureTests.openingError(path)?.kind == .inUse)
        first = nil
        #expect(try JournalFailureTests.openingError(path) == nil, "the lock goes with the queue")
    }

    @Test func aStoppedQueueSaysItsJournalIsClosed() async throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let queue = try TransactionQueue(policy: QueueFixtures.example("rocket-racer"), store: ScriptedStore(),
                                         configuration: JournalFailureTests.configuration(path))
        try await queue.start()
        await queue.stop()
        do {
            _ = try await queue.grantLedger()
            Issue.record("a stopped queue read its closed journal")
        } catch {
            #expect(error.kind == .closed, "\(error)")
            #expect(error.path == path)
        }
    }

    @Test func aLockFileThatIsALinkIsNotFollowed() throws {
        let folder = try QueueFixtures.folder()
        let path = folder.appendingPathComponent("journal.sqlite").path
        let target = folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createSymbolicLink(atPath: path + ".lock", withDestinationPath: target)

        let error = try #require(try JournalFailureTests.openingError(path))
        #expect(error.kind == .unreadable, "\(error)")
        #expect(error.message.contains(path + ".lock"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was created through the link")
        #expect(!FileManager.default.fileExists(atPath: path), "no journal was created without its lock")
    }

    @Test func aQueueInAnotherProcessIsRefusedTheJournalThisOneHolds() async throws {
        let state = try QueueFixtures.folder("second-process")
        defer { try? FileManager.default.removeItem(at: state) }
        let path = state.appendingPathComponent("journal.sqlite").path
        let held = try TransactionQueue(policy: QueueFixtures.example("rocket-racer"), store: ScriptedStore(),
                                        configuration: JournalFailureTests.configuration(path))
        try await held.start()
        let arguments = CrashDrill.runArguments(state: state.path, seed: 9, transactions: 20, batchLimit: nil)

        let refused = try await CrashDrill.run(arguments)
        #expect(!refused.signaled && refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains(path) && refused.stderr.contains("in use"), "\(refused)")
        let finished = FileManager.default.contents(atPath: state.appendingPathComponent("store/finished.log").path) ?? Data()
        #expect(finished.isEmpty, "the refused launch finished nothing")

        await held.stop()
        let completed = try await CrashDrill.run(arguments)
        #expect(!completed.signaled && completed.status == 0, "once the first let it go: \(completed)")
    }
}
