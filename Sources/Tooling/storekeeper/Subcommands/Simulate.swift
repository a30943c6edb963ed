import ArgumentParser
import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperPlatform
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperYAML

/// `storekeeper simulate CATALOG SCENARIO`: runs a scripted session against
/// the simulated App Store and checks its expectations.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario against the simulated App Store and check its expectations.",
        discussion: """
            CATALOG is a catalog (validated and compiled first) or a compiled policy (.json); SCENARIO \
            is a scenario file (docs/simulate.md). The catalog's plans run in the real transaction queue \
            against a simulated store: purchases, Ask to Buy, failures, crashes, restores, downloads, \
            renewals and refunds, deterministic under the seed. The trace shows every update, the plan \
            chosen and each step's outcome; on a terminal, downloads show as progress bars.

            Exit status: 0 when every expectation held, 1 when one failed, 2 when the session could not \
            run: the catalog or the scenario is invalid, or an action could not run.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The catalog file, or a compiled policy (.json).")
    var catalog: String

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: "Output format: text (the trace, then failures) or json (one document for tools).")
    var format: Format = .text

    @Option(parsing: .unconditional, help: ArgumentHelp("The seed, instead of the scenario's: 0 to 2^63 − 1.", valueName: "n"),
            transform: SeedArgument.parse)
    var seed: UInt64?

    @Flag(help: "Print only failed expectations and the summary (text).")
    var quiet = false

    @Option(help: ArgumentHelp("Keep the session's files (each device's journal, user defaults and downloads, the account's iCloud folder) in this folder, which must be empty or absent; a temporary folder, removed afterwards, by default.", valueName: "path"))
    var state: String?

    @Option(name: .customLong("config"), help: ArgumentHelp("The configuration to use instead of the storekeeper.yml found beside the catalog.", valueName: "path"))
    var configuration: String?

    @Option(help: "Colour in diagnostics: auto, always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var limits: LimitOptions

    func run() throws {
        var source = PolicySource(path: catalog, configuration: configuration, limits: limits, color: color)
        source.standInSteps = true
        source.invalidStatus = 2
        let policy = try source.load().policy
        var parsed = try loadScenario(policy: policy)
        if let seed { parsed.seed = seed }
        let folder = try sessionFolder()
        defer { if state == nil { try? FileManager.default.removeItem(atPath: folder) } }

        let renderer = TraceTextRenderer()
        let live = format == .text && !quiet
        let printer = TracePrinter(renderer: renderer, file: parsed.file, terminal: StandardOutput.isTerminal)
        let listener: (@Sendable (TraceEvent) -> Void)? = live ? { @Sendable event in printer.print(event) } : nil
        let recorder = TraceRecorder(listener: listener)
        if live { StandardOutput.write(renderer.heading(parsed, catalog: catalog), what: "the trace") }
        let report = Self.wait(Simulation(policy: policy, scenario: parsed, folder: folder, recorder: recorder))
        switch format {
        case .json:
            StandardOutput.write(TraceJSONRenderer().render(report, catalog: catalog), what: "the trace")
        case .text:
            printer.endLine()
            StandardOutput.write(renderer.summary(report), what: "the trace")
        }
        if state == nil { try? FileManager.default.removeItem(atPath: folder) }
        ProcessExit.now(report.exitStatus, keeping: policy)
    }

    /// Reads, parses and checks the scenario in one run (its own problems,
    /// the catalog's names, the order of actions); its errors are printed and exit 2.
    private func loadScenario(policy: CompiledPolicy) throws(CommandFailure) -> Scenario {
        try InputPathName.refuseIfNotUTF8(scenario)
        let reader = FileSystemReader()
        let bytes: [UInt8]
        do {
            bytes = try reader.read(scenario, limit: limits.limits.maxFileSize)
        } catch {
            throw CommandFailure(message: "cannot read the scenario \(scenario): \(error)")
        }
        let result = ScenarioParser(limits: limits.limits).parse(bytes, file: scenario, checkingAgainst: policy)
        let report = ValidationReport(diagnostics: result.diagnostics, filesChecked: 1)
        if !report.diagnostics.isEmpty {
            let colors = color.resolve(isTerminal: StandardError.isTerminal, environment: Environment.current)
            let text = TextReporter(colors: colors, sourceLine: SourceLines.provider(for: report, reader: reader, limit: limits.limits.maxFileSize))
                .render(report)
            StandardError.write(text)
        }
        guard let parsed = result.scenario, !report.fails(strict: false) else { ProcessExit.now(2, keeping: policy) }
        return parsed
    }

    /// The folder the session writes in: `--state`, or a new temporary one.
    private func sessionFolder() throws(CommandFailure) -> String {
        let manager = FileManager.default
        if let state {
            try Self.requireEmpty(state)
            do {
                try manager.createDirectory(atPath: state, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure(message: "cannot make --state \(state): \(error.localizedDescription)")
            }
            try Self.lockSession(state)
            // Again under the lock: a session that started meanwhile may have filled it.
            try Self.requireEmpty(state)
            return state
        }
        let path = manager.temporaryDirectory.appendingPathComponent("storekeeper-simulate-\(UUID().uuidString)").path
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot make a temporary folder: \(error.localizedDescription)")
        }
        return path
    }

    /// The lock file a session holds in its `--state` folder; left there
    /// afterwards (removing it would let two sessions lock two files of one name).
    static let lockName = ".storekeeper-simulate.lock"

    /// Refuses a `--state` folder with anything in it but the lock file.
    private static func requireEmpty(_ state: String) throws(CommandFailure) {
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: state), contents.contains(where: { $0 != lockName }) {
            throw CommandFailure(message: "--state \(state) is not empty; give an empty or new folder (a session starts from nothing)")
        }
    }

    /// Takes an exclusive lock on `STATE/.storekeeper-simulate.lock` for the
    /// whole session (the descriptor stays open until the process exits),
    /// so that a second session on the same folder is refused instead of
    /// sharing its journals: each simulated launch takes and lets go of its
    /// journal's lock, which alone does not keep another session out.
    private static func lockSession(_ state: String) throws(CommandFailure) {
        let path = (state as NSString).appendingPathComponent(lockName)
        // No-follow: a link planted at this name must not make the session create or lock another file.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot open the session's lock file \(path) (\(String(cString: strerror(errno)))); give a folder the tool may write in")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw CommandFailure(message: "--state \(state) is in use by another storekeeper simulate session (it holds \(path)); wait for it to end, or give another folder")
            }
            throw CommandFailure(message: "cannot lock the session's lock file \(path) (\(String(cString: strerror(code))))")
        }
    }

    /// Runs the session on the concurrency pool and waits for it (the command is synchronous).
    private static func wait(_ simulation: Simulation) -> SimulationReport {
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        Task.detached {
            box.report = await simulation.run()
            done.signal()
        }
        done.wait()
        // The task signalled after storing the report.
        return box.report ?? SimulationReport(scenario: simulation.scenario, events: [], expectations: [], error: nil)
    }
}

/// Carries the report out of the session's task.
private final class ReportBox: @unchecked Sendable {
    // @unchecked: written once by the session's task before it signals, read after the wait.
    var report: SimulationReport?
}
