import ArgumentParser
import Foundation
import Logging
import StorekeeperServerLives
import StorekeeperStoreModel

/// `storekeeper-server-lives`: random lives of the App Store model driven through real storekeeper-server
/// instances over HTTP on loopback (issue 24): at every checkpoint each app account's `GET /v1/entitlements`
/// must equal the model's. Prints the figures and each distinct disagreement with the seed that replays it;
/// exits 1 on any.
@main
struct LivesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper-server-lives",
        abstract: "Random lives of the App Store model through storekeeper-server; the server must agree with the model.",
        discussion: """
            PostgreSQL's URL is read from --postgres-url-file or STOREKEEPER_TEST_POSTGRES_URL, never from the \
            command line (it holds a password): STOREKEEPER_TEST_POSTGRES_URL="$(Scripts/postgres url)".
            """)

    @Option(help: "How many lives.")
    var lives = 1_000

    @Option(help: "The first life's seed; the others follow it (seed, seed + 1, …).")
    var seed: UInt64 = 1

    @Option(help: "Replay the one life of this seed, printing its whole story with every request and answer.")
    var replay: UInt64?

    @Option(name: .customLong("database"), help: "sqlite or postgres.")
    var databaseName = "sqlite"

    var database: LifeDatabase { LifeDatabase(rawValue: databaseName) ?? .sqlite }

    @Option(help: "Server instances sharing the ledger: 1, or 2 (PostgreSQL only).")
    var instances = 1

    @Option(help: "A file holding PostgreSQL's URL (else STOREKEEPER_TEST_POSTGRES_URL).")
    var postgresURLFile: String?

    @Option(help: "Lines of each failure's story printed (its whole story with --replay).")
    var storyLines = 40

    @Flag(help: "Devices that are off miss every update they can (upgraded, revoked, extended versions), not only renewals.")
    var devicesMissUpdates = false

    @Flag(help: "Each person has a device: the app's queue over StoreKit 2, posting to the server over HTTP, whose entitlements must equal the server's and the model's (docs/server.md, \"Device and server\").")
    var devices = false

    @Option(help: "The servers' log level (their log goes to standard error): trace … critical.")
    var logLevel = "error"

    func validate() throws {
        guard LifeDatabase(rawValue: databaseName) != nil else {
            throw ValidationError("--database \(databaseName): sqlite or postgres")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard lives > 0 else { throw ValidationError("--lives \(lives): give a positive number of lives") }
        guard (1...2).contains(instances) else { throw ValidationError("--instances \(instances): 1 or 2") }
        if instances == 2, database != .postgres { throw ValidationError("--instances 2 needs --database postgres (SQLite is one process's)") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .error
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var url: String?
        if database == .postgres {
            if let file = postgresURLFile {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw ValidationError("--postgres-url-file \(file): cannot be read")
                }
                url = text.trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                url = ProcessInfo.processInfo.environment["STOREKEEPER_TEST_POSTGRES_URL"]
            }
            guard let url, !url.isEmpty else {
                throw ValidationError("--database postgres needs its URL: --postgres-url-file FILE or STOREKEEPER_TEST_POSTGRES_URL")
            }
        }
        let world = try LivesWorld()
        var settings = LifeSettings.standard
        settings.faults.offDevicesMissUpdates = devicesMissUpdates
        let options = LivesOptions(database: database, instances: instances, postgresURL: url, settings: settings, devices: devices)
        let driver = try await LivesDriver(world: world, options: options)
        if let replay {
            let outcome = await driver.run(seed: replay, transcript: true)
            say(outcome.transcript.joined(separator: "\n"))
            var report = LivesReport(options: driver.options)
            report.add(outcome)
            say("\n" + report.figures)
            await driver.close()
            if let failure = outcome.failure {
                say("\n" + failure.report(storyLines: 0))
                throw ExitCode(1)
            }
            say("life \(replay): the server\(devices ? ", the devices" : "") agreed with the model at every checkpoint")
            return
        }
        say("storekeeper-server-lives: \(lives) lives from seed \(seed) on \(database), \(instances) instance\(instances == 1 ? "" : "s")\(devices ? ", with devices" : "")")
        let every = max(1, lives / 20)
        var done = 0
        var failed = 0
        let start = ContinuousClock.now
        let last = seed &+ UInt64(lives)
        let report = await driver.run(seeds: seed..<last) { outcome in
            done += 1
            if outcome.failure != nil { failed += 1 }
            if done % every == 0 || done == lives {
                let elapsed = ContinuousClock.now - start
                say("  \(done)/\(lives) lives, \(failed) failed, \(elapsed.components.seconds) s")
            }
        }
        await driver.close()
        say(report.figures)
        say(report.mix)
        guard report.failures.isEmpty else {
            say("\n\(report.distinct.count) distinct disagreement\(report.distinct.count == 1 ? "" : "s") (seed that fails soonest; replay for its whole story):\n")
            say(report.failureReport(storyLines: storyLines))
            let seeds = report.failures.map { String($0.seed) }
            say("\nfailed seeds (\(seeds.count)): \(seeds.prefix(200).joined(separator: " "))\(seeds.count > 200 ? " …" : "")")
            throw ExitCode(1)
        }
        say("every life agreed with the model at every checkpoint")
    }
}

/// Writes a line to standard output at once (not through `print`'s buffer), so that progress shows while
/// lives run, in a terminal or in a log being followed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
