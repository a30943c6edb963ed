import Foundation

import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperPlatform

/// The crash drill: a clean launch gives the reference report; then, over a
/// fresh state folder, launches are killed with SIGKILL (by a timer, or by
/// themselves at a kill point) until enough have died, and launched without
/// kills until one completes; its report must equal the reference.
///
/// A launch that completes while kills are still owed ends a round: its
/// report is compared with the reference at once (a difference stops the
/// drill), and the kills go on over a new fresh folder, so that every kill
/// lands on a launch with work left rather than on an app with nothing to do.
struct SuperviseCommand {
    let options: SuperviseOptions

    /// What the launches came to.
    private struct Tally {
        var kills = 0
        var launches = 0
        var timerKills = 0
        var selfKills = 0
        var incomplete = 0
        var rounds = 1
        var points: [String: Int] = [:]
    }

    /// Runs the drill; prints the summary on standard output. Returns whether the reports are equal.
    func execute() throws(DrillError) -> Bool {
        let started = DispatchTime.now().uptimeNanoseconds
        let (work, temporary) = try WorkFolder.prepare(options.work, prefix: "storekeeper-queue-drill")
        let executable = ChildLaunch.ownExecutable()

        let (reference, referenceMilliseconds) = try referenceReport(executable: executable, work: work)
        // A timer spread over a whole clean launch lands in start-up, in the work and after it, on any machine and build.
        let maximumDelay = options.maxDelayMilliseconds ?? max(1, referenceMilliseconds)
        var random = SplitMix64(seed: options.seed ^ 0xC0FF_EE00_D15E_A5E5)
        var tally = Tally()
        // A bound, so that a queue that never completes fails the drill instead of hanging it.
        let maximumLaunches = options.kills * 20 + 200
        var final: DrillReport?
        while final == nil {
            tally.launches += 1
            guard tally.launches <= maximumLaunches else {
                throw DrillError.message("no launch completed after \(maximumLaunches) launches (\(tally.kills) kills); the state is in \(work)")
            }
            let state = "\(work)/crash-\(tally.rounds)"
            var arguments = runArguments(state: state)
            var delay: Int?
            if tally.kills < options.kills {
                if random.chance(0.5) {
                    delay = random.next(in: 0...maximumDelay)
                } else {
                    arguments += ["--kill-probability", "\(options.killProbability)", "--kill-seed", "\(random.next())"]
                }
            }
            let launch = ChildLaunch(executable: executable, arguments: arguments,
                                     standardOutput: "\(work)/launch.out", standardError: "\(work)/launch.err")
            let outcome = try launch.run(killAfterMilliseconds: delay, timeoutSeconds: options.launchTimeoutSeconds)
            let errors = (try? String(contentsOfFile: "\(work)/launch.err", encoding: .utf8)) ?? ""
            if outcome.timedOut {
                throw DrillError.message("launch \(tally.launches) hung for \(options.launchTimeoutSeconds) s: \(launchLine(arguments))\n\(errors)")
            }
            switch outcome.termination {
            case .signalled(SIGKILL):
                tally.kills += 1
                if outcome.delayedKillSent {
                    tally.timerKills += 1
                } else {
                    tally.selfKills += 1
                    tally.points[selfKillPoint(in: errors) ?? "unknown", default: 0] += 1
                }
            case .exited(RunCommand.Status.complete.rawValue):
                let report = try DrillReport.read("\(work)/launch.out")
                if tally.kills >= options.kills || report != reference {
                    final = report
                } else {
                    tally.rounds += 1
                }
            case .exited(RunCommand.Status.incomplete.rawValue):
                tally.incomplete += 1
            case .exited, .signalled:
                throw DrillError.message("launch \(tally.launches) \(outcome.termination): \(launchLine(arguments))\n\(errors)")
            }
        }
        guard let final else { throw DrillError.message("no final report") }

        let equal = final == reference
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let summary = SupervisorSummary(
            kills: tally.kills, launches: tally.launches, timerKills: tally.timerKills, selfKills: tally.selfKills,
            selfKillPoints: tally.points, rounds: tally.rounds, incomplete: tally.incomplete, maxDelayMilliseconds: maximumDelay,
            seconds: (seconds * 1000).rounded() / 1000, reference: reference, final: final, equal: equal)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            FileHandle.standardOutput.write(try encoder.encode(summary))
            FileHandle.standardOutput.write(Data("\n".utf8))
        } catch {
            throw DrillError.message("cannot write the summary: \(error)")
        }
        if equal {
            if temporary { try? FileManager.default.removeItem(atPath: work) }
        } else {
            let difference = (try? JSONDifference.first(reference.json(), final.json())) ?? "unknown"
            StandardError.print("storekeeper-queue-drill: seed \(options.seed), round \(tally.rounds): "
                + "the final report differs from the reference at \(difference)")
            StandardError.print("storekeeper-queue-drill: the state folders are in \(work)")
        }
        return equal
    }

    /// The report of a launch that is never killed, over a fresh folder, and how long the launch took.
    private func referenceReport(executable: String, work: String) throws(DrillError) -> (DrillReport, Int) {
        let arguments = runArguments(state: "\(work)/reference")
        let launch = ChildLaunch(executable: executable, arguments: arguments,
                                 standardOutput: "\(work)/reference.out", standardError: "\(work)/reference.err")
        let outcome = try launch.run(killAfterMilliseconds: nil, timeoutSeconds: options.launchTimeoutSeconds)
        guard outcome.termination == .exited(RunCommand.Status.complete.rawValue), !outcome.timedOut else {
            let errors = (try? String(contentsOfFile: "\(work)/reference.err", encoding: .utf8)) ?? ""
            let how = outcome.timedOut ? "timed out" : "\(outcome.termination)"
            throw DrillError.message("the reference launch \(how): \(launchLine(arguments))\n\(errors)")
        }
        return (try DrillReport.read("\(work)/reference.out"), Int(outcome.elapsed / .milliseconds(1)))
    }

    private func runArguments(state: String) -> [String] {
        RunOptions.arguments(catalog: options.catalog, state: state, seed: options.seed, transactions: options.transactions,
                             durability: options.durability, batchLimit: options.batchLimit)
    }

    /// The point a self-killed launch named on standard error.
    private func selfKillPoint(in errors: String) -> String? {
        guard let range = errors.range(of: "killing itself at ", options: .backwards) else { return nil }
        return String(errors[range.upperBound...].prefix { !$0.isWhitespace })
    }

    private func launchLine(_ arguments: [String]) -> String {
        "storekeeper-queue-drill " + arguments.joined(separator: " ")
    }
}
