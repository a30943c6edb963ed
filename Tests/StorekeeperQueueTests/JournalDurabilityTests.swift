import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperTestSupport
import Foundation
import Testing

/// The store finishes a transaction only once what its steps delivered is on
/// the disk, in every durability: a finished transaction is never delivered
/// again, so a power loss after the finish must not take the delivery back.
///
/// Watched from outside, as the review found it: the drill's `run` under
/// `strace`, every write and flush of the journal's files and of the store's
/// finished log in the order the kernel saw them. When the store starts
/// writing a finish, nothing written to the journal (its database or its
/// WAL) may still wait for its flush.
@Suite struct JournalDurabilityTests {
    @Test(.enabled(if: Strace.path != nil, "needs strace, allowed to trace its child"),
          arguments: ["full", "app-crash"])
    func theStoreFinishesOnlyWhatTheJournalHasFlushed(_ durability: String) async throws {
        let state = try QueueFixtures.folder("durability-\(durability)")
        defer { try? FileManager.default.removeItem(at: state) }
        let trace = state.appendingPathComponent("strace.txt").path
        let arguments = CrashDrill.runArguments(state: state.appendingPathComponent("app").path, seed: 11, transactions: 60, batchLimit: 8)
            + ["--durability", durability]
        let result = try await CrashDrill.run(arguments, through: [try #require(Strace.path)] + Strace.options(output: trace))
        try #require(!result.signaled && result.status == 0, "\(result)")

        let flushes = try Strace.Flushes(String(contentsOfFile: trace, encoding: .utf8))
        #expect(flushes.finishes >= 40, "the store finished \(flushes.finishes) transactions")
        #expect(flushes.journalFlushes > 0)
        #expect(flushes.finishesBeforeTheJournalWasFlushed == 0,
                "\(flushes.finishesBeforeTheJournalWasFlushed) of \(flushes.finishes) finishes began with journal writes not on the disk (\(durability)); journal flushes: \(flushes.journalFlushes)")
    }
}

/// `strace`, when it is installed and may trace.
enum Strace {
    static let path: String? = {
        guard let path = ["/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return nil
        }
        // Containers may forbid ptrace: try it once.
        guard let run = try? ChildProcess(path, ["-f", "-qq", "-o", "/dev/null", "/bin/true"]).run(timeout: .seconds(60)) else {
            return nil
        }
        return run.termination == .exited(0) ? path : nil
    }()

    /// Follows threads, names each descriptor's file, prints no data.
    static func options(output: String) -> [String] {
        ["-f", "-qq", "-y", "-s", "0", "-e", "trace=write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync", "-o", output, "--"]
    }

    /// What a trace says of the journal's flushes and the store's finishes.
    struct Flushes {
        /// Finishes the store began writing.
        var finishes = 0
        /// Those that began while something written to the journal was not flushed yet.
        var finishesBeforeTheJournalWasFlushed = 0
        /// `fsync` and `fdatasync` calls on the journal's files.
        var journalFlushes = 0

        init(_ trace: String) {
            var unflushed: Set<String> = []
            var pending: [String: (call: String, file: String)] = [:]
            for line in trace.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 1)
                guard fields.count == 2 else { continue }
                let thread = String(fields[0])
                let rest = fields[1].drop { $0 == " " }
                let call: String
                let file: String
                if rest.hasPrefix("<... ") {
                    // `<... fsync resumed>) = 0`: a call a thread began earlier ends now.
                    guard let begun = pending.removeValue(forKey: thread) else { continue }
                    (call, file) = begun
                    if Self.isFlush(call), Self.isJournal(file), rest.hasSuffix("= 0") {
                        unflushed.remove(file)
                        journalFlushes += 1
                    }
                    continue
                }
                guard let open = rest.firstIndex(of: "("), let start = rest.firstIndex(of: "<"), let end = rest.firstIndex(of: ">"),
                      start < end
                else { continue }
                call = String(rest[..<open])
                file = String(rest[rest.index(after: start)..<end])
                let unfinished = rest.hasSuffix("<unfinished ...>")
                if Self.isFlush(call) {
                    if unfinished {
                        pending[thread] = (call, file)
                    } else if Self.isJournal(file), rest.hasSuffix("= 0") {
                        unflushed.remove(file)
                        journalFlushes += 1
                    }
                } else {
                    // A write counts from when it begins.
                    if unfinished { pending[thread] = (call, file) }
                    if Self.isJournal(file) { unflushed.insert(file) }
                    if file.hasSuffix("/finished.log") {
                        finishes += 1
                        if !unflushed.isEmpty { finishesBeforeTheJournalWasFlushed += 1 }
                    }
                }
            }
        }

        private static func isFlush(_ call: String) -> Bool { call == "fsync" || call == "fdatasync" }

        /// The journal's database and its WAL (not the lock file, nor the `-shm` index, which is shared memory).
        private static func isJournal(_ file: String) -> Bool {
            file.hasSuffix("/journal.sqlite") || file.hasSuffix("/journal.sqlite-wal")
        }
    }
}
