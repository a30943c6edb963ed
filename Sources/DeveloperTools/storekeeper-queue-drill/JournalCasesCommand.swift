import Foundation

import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperPlatform

/// The journal's cases of the drill, each in child processes, as an app
/// would meet them:
///
/// - `zero-bytes`: after a complete launch the journal is emptied; the next
///   launch must fail naming it, leave it empty and finish nothing (the
///   store's log unchanged), never start a new journal;
/// - `cut-short`: the same with the journal cut to a part of a page;
/// - `second-process`: a launch holds the journal open while another starts
///   on the same folder; the second must fail at once naming the journal as
///   in use, and the first complete with the reference report;
/// - `simultaneous`: two launches start together on a fresh folder; each
///   either completes with the reference report or is refused as in use,
///   never a half-made journal or wrong balances.
struct JournalCasesCommand {
    let options: JournalCasesOptions

    /// Runs the cases; prints the summary on standard output. Returns whether every case passed.
    func execute() throws(DrillError) -> Bool {
        let (work, temporary) = try WorkFolder.prepare(options.work, prefix: "storekeeper-queue-drill-journal")
        let context = Context(options: options, work: work, executable: ChildLaunch.ownExecutable())
        let reference = try context.complete(state: "\(work)/reference")
        var cases: [JournalCasesSummary.Case] = []
        cases.append(try context.damaged("zero-bytes", cutTo: { _ in 0 }, reference: reference))
        // Within the first page: shorter than any database, longer than SQLite's header.
        cases.append(try context.damaged("cut-short", cutTo: { min($0 - 1, 1_000) }, reference: reference))
        cases.append(try context.secondProcess(reference: reference))
        cases.append(try context.simultaneous(reference: reference))

        let summary = JournalCasesSummary(cases: cases, passed: cases.allSatisfy(\.passed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            FileHandle.standardOutput.write(try encoder.encode(summary))
            FileHandle.standardOutput.write(Data("\n".utf8))
        } catch {
            throw DrillError.message("cannot write the summary: \(error)")
        }
        if summary.passed {
            if temporary { try? FileManager.default.removeItem(atPath: work) }
        } else {
            let failed = cases.filter { !$0.passed }.map(\.name)
            StandardError.print("storekeeper-queue-drill: journal: \(failed.joined(separator: ", ")) failed; the state folders are in \(work)")
        }
        return summary.passed
    }

    /// What every case needs.
    private struct Context {
        let options: JournalCasesOptions
        let work: String
        let executable: String

        /// A launch that must complete: its report.
        func complete(state: String) throws(DrillError) -> DrillReport {
            let (outcome, errors) = try launch(state: state, name: "complete")
            guard outcome.termination == .exited(RunCommand.Status.complete.rawValue) else {
                throw DrillError.message("a clean launch over \(state) \(outcome.termination):\n\(errors)")
            }
            return try DrillReport.read("\(work)/complete.out")
        }

        /// A complete launch, then the journal cut to `cutTo(size)` bytes, then a launch that must be refused.
        func damaged(_ name: String, cutTo: (Int) -> Int, reference: DrillReport) throws(DrillError) -> JournalCasesSummary.Case {
            let state = "\(work)/\(name)"
            let journal = "\(state)/journal.sqlite"
            _ = try complete(state: state)
            let size = Self.size(journal) ?? 0
            guard truncate(journal, off_t(cutTo(size))) == 0 else { throw DrillError.system("cut short", journal, code: errno) }
            let before = Self.size(journal)
            let finished = Self.contents("\(state)/store/finished.log")
            let (outcome, errors) = try launch(state: state, name: name)
            let refused = Self.launch("refused", outcome, errors, reference: reference, report: "\(work)/\(name).out")
            let unchanged = Self.contents("\(state)/store/finished.log") == finished
            let after = Self.size(journal)
            let passed = outcome.termination == .exited(RunCommand.Status.failed.rawValue) && errors.contains(journal)
                && after == before && unchanged
            return JournalCasesSummary.Case(name: name, journal: journal, launches: [refused], journalBytesBefore: before,
                                            journalBytesAfter: after, finishedLogUnchanged: unchanged, passed: passed)
        }

        /// A launch holding the journal open while a second starts on the same folder.
        func secondProcess(reference: DrillReport) throws(DrillError) -> JournalCasesSummary.Case {
            let state = "\(work)/second-process"
            let journal = "\(state)/journal.sqlite"
            let hold = "\(work)/second-process.hold"
            let holder = try ChildLaunch(executable: executable, arguments: arguments(state: state) + ["--hold", hold],
                                         standardOutput: "\(work)/holder.out", standardError: "\(work)/holder.err").start()
            // Until the holder has the journal open (it creates the hold file then), or has ended, or hangs.
            let giveUpAt = DispatchTime.now().uptimeNanoseconds + UInt64(options.launchTimeoutSeconds) * 1_000_000_000
            while !FileManager.default.fileExists(atPath: hold) {
                if holder.hasEnded() || DispatchTime.now().uptimeNanoseconds > giveUpAt { break }
                usleep(2_000)
            }
            let holding = FileManager.default.fileExists(atPath: hold)
            let finished = Self.contents("\(state)/store/finished.log")
            var second: (ChildOutcome, String)?
            if holding { second = try launch(state: state, name: "second") }
            let unchanged = Self.contents("\(state)/store/finished.log") == finished
            try? FileManager.default.removeItem(atPath: hold)
            let held = try ChildLaunch.wait(for: holder, killAfterMilliseconds: nil, timeoutSeconds: options.launchTimeoutSeconds)
            let holderLaunch = Self.launch("holder", held, Self.text("\(work)/holder.err"), reference: reference,
                                           report: "\(work)/holder.out")
            var launches = [holderLaunch]
            var passed = holding && holderLaunch.reportEqualsReference == true && unchanged
            if let (outcome, errors) = second {
                launches.append(Self.launch("second", outcome, errors, reference: reference, report: "\(work)/second.out"))
                passed = passed && outcome.termination == .exited(RunCommand.Status.failed.rawValue) && errors.contains(journal)
                    && errors.contains("in use")
            }
            return JournalCasesSummary.Case(name: "second-process", journal: journal, launches: launches, journalBytesBefore: nil,
                                            journalBytesAfter: Self.size(journal), finishedLogUnchanged: unchanged, passed: passed)
        }

        /// Two launches started together on a fresh folder.
        func simultaneous(reference: DrillReport) throws(DrillError) -> JournalCasesSummary.Case {
            let state = "\(work)/simultaneous"
            let journal = "\(state)/journal.sqlite"
            let names = ["first", "second"].map { "simultaneous-\($0)" }
            let running = try names.map { name throws(DrillError) in
                try ChildLaunch(executable: executable, arguments: arguments(state: state),
                                standardOutput: "\(work)/\(name).out", standardError: "\(work)/\(name).err").start()
            }
            var launches: [JournalCasesSummary.Launch] = []
            for (name, child) in zip(names, running) {
                let outcome = try ChildLaunch.wait(for: child, killAfterMilliseconds: nil, timeoutSeconds: options.launchTimeoutSeconds)
                launches.append(Self.launch(name, outcome, Self.text("\(work)/\(name).err"), reference: reference,
                                            report: "\(work)/\(name).out"))
            }
            let eachAsItShould = launches.allSatisfy { launch in
                launch.reportEqualsReference == true
                    || (launch.exitStatus == RunCommand.Status.failed.rawValue && launch.standardError.contains("in use"))
            }
            let passed = eachAsItShould && launches.contains { $0.reportEqualsReference == true }
            return JournalCasesSummary.Case(name: "simultaneous", journal: journal, launches: launches, journalBytesBefore: nil,
                                            journalBytesAfter: Self.size(journal), finishedLogUnchanged: true, passed: passed)
        }

        private func arguments(state: String) -> [String] {
            RunOptions.arguments(catalog: options.catalog, state: state, seed: options.seed, transactions: options.transactions,
                                 durability: options.durability, batchLimit: nil)
        }

        /// One launch over `state`, its output in `work/name.out` and `.err`; the outcome and its standard error.
        private func launch(state: String, name: String) throws(DrillError) -> (ChildOutcome, String) {
            let outcome = try ChildLaunch(executable: executable, arguments: arguments(state: state),
                                          standardOutput: "\(work)/\(name).out", standardError: "\(work)/\(name).err")
                .run(killAfterMilliseconds: nil, timeoutSeconds: options.launchTimeoutSeconds)
            if outcome.timedOut {
                throw DrillError.message("a launch over \(state) hung for \(options.launchTimeoutSeconds) s:\n\(Self.text("\(work)/\(name).err"))")
            }
            return (outcome, Self.text("\(work)/\(name).err"))
        }

        private static func launch(_ role: String, _ outcome: ChildOutcome, _ errors: String, reference: DrillReport,
                                   report: String) -> JournalCasesSummary.Launch {
            var launch = JournalCasesSummary.Launch(role: role, standardError: String(errors.prefix(4_000)))
            switch outcome.termination {
            case .exited(let status):
                launch.exitStatus = status
                if status == RunCommand.Status.complete.rawValue {
                    launch.reportEqualsReference = (try? DrillReport.read(report)) == reference
                }
            case .signalled(let signal):
                launch.signal = signal
            }
            return launch
        }

        private static func size(_ path: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        }

        private static func contents(_ path: String) -> Data? {
            FileManager.default.contents(atPath: path)
        }

        private static func text(_ path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }
}
