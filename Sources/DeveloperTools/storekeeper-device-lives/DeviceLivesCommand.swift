import ArgumentParser
import Foundation
import StorekeeperCore
import StorekeeperDeviceLives

/// `storekeeper-device-lives`: random lives of the App Store model on devices (issue 25): each person's app
/// runs the real `TransactionQueue` on its own journal over a StoreKit backend over a StoreKit driven by the
/// model, relaunched at random points, with StoreKit's faults; at every checkpoint each device's entitlements
/// must equal the model's. Prints progress, the figures and each failure with its story and replay command;
/// exits 1 on any. docs/device-lives.md.
@main
struct DeviceLivesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper-device-lives",
        abstract: "Random lives of the App Store model through the device's queue and StoreKit backend; each device must agree with the model.")

    @Option(help: "How many lives.")
    var lives = 1_000

    @Option(help: "The first life's seed; the others follow it (seed, seed + 1, …).")
    var seed: UInt64 = 1

    @Option(help: "The StoreKit the queue runs over: \(DeviceBackend.allCases.map(\.rawValue).joined(separator: ", ")).")
    var backend: DeviceBackend = .storekit2

    @Option(help: "Replay the one life of this seed, printing its whole story.")
    var replay: UInt64?

    @Option(help: "Lives run at once.")
    var jobs = 2

    @Option(help: "Failures printed in full, with their stories (every failure also gets one line).")
    var failuresShown = 3

    func validate() throws {
        guard lives > 0 else { throw ValidationError("--lives \(lives): give a positive number of lives") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs \(jobs): 1 to 64") }
        for backend in backend.runs where !backend.isBuilt {
            throw ValidationError("--backend \(backend.rawValue): not built yet (the model-driven StoreKit 1 lives are not wired to this command)")
        }
    }

    func run() async throws {
        let world = try DeviceWorld()
        var failed = false
        for backend in backend.runs {
            let driver = try backend.driver(world: world, traces: replay != nil)
            if let replay {
                let report = await driver.live(seed: replay)
                var summary = DeviceLivesSummary()
                summary.add(report)
                if let failure = report.failure {
                    say(failure.description)
                    failed = true
                } else {
                    say(report.story.joined(separator: "\n"))
                    say("life \(replay) on \(backend.rawValue): every device agreed with the model at every checkpoint")
                }
                say(summary.table(backend: backend.rawValue, elapsed: report.duration))
                continue
            }
            failed = await runMany(driver, backend: backend) || failed
        }
        if failed { throw ExitCode(1) }
    }

    /// Runs `lives` lives; answers whether any failed.
    private func runMany(_ driver: any DeviceLivesDriver, backend: DeviceBackend) async -> Bool {
        say("storekeeper-device-lives: \(lives) lives from seed \(seed) on \(backend.rawValue), \(jobs) at a time")
        let start = ContinuousClock.now
        let every = max(1, lives / 20)
        let progress = Progress()
        let total = lives
        let seeds = (0..<lives).map { seed &+ UInt64($0) }
        let summary = await driver.live(seeds: seeds, jobs: jobs) { report in
            let (done, failed) = progress.add(failed: report.failure != nil)
            if done % every == 0 || done == total {
                say("  \(done)/\(total) lives, \(failed) failed, \((ContinuousClock.now - start).components.seconds) s")
            }
        }
        say(summary.table(backend: backend.rawValue, elapsed: ContinuousClock.now - start))
        guard summary.failures.isEmpty else {
            for failure in summary.failures.prefix(failuresShown) { say("\n" + failure.description) }
            say("\nevery failure, one line each (seed, step, account: what):")
            for failure in summary.failures {
                say("  \(failure.seed) step \(failure.step) \(failure.account ?? "-"): \(failure.message.prefix(400))")
            }
            let seeds = summary.failures.map { String($0.seed) }
            say("\nfailed seeds (\(seeds.count)): \(seeds.prefix(200).joined(separator: " "))\(seeds.count > 200 ? " …" : "")")
            return true
        }
        say("every device agreed with the model at every checkpoint")
        return false
    }
}

/// Lives done and failed so far, counted from the lives' task group.
final class Progress: Sendable {
    private let counts = Locked((done: 0, failed: 0))

    func add(failed didFail: Bool) -> (done: Int, failed: Int) {
        counts.withLock {
            $0.done += 1
            if didFail { $0.failed += 1 }
            return $0
        }
    }
}

/// Writes a line to standard output at once (not through `print`'s buffer), so that progress shows while lives run.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
