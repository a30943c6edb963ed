import ArgumentParser
// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperCommandLine
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperTooling

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
        var parsed = try ScenarioSource.load(scenario, policy: policy, limits: limits.limits, color: color)
        if let seed { parsed.seed = seed }
        let folder = try SessionFolder.make(state: state)
        defer { folder.removeIfTemporary() }

        let renderer = TraceTextRenderer()
        let live = format == .text && !quiet
        let printer = TracePrinter(renderer: renderer, file: parsed.file, terminal: StandardOutput.isTerminal)
        let listener: (@Sendable (TraceEvent) -> Void)? = live ? { @Sendable event in printer.print(event) } : nil
        let recorder = TraceRecorder(listener: listener)
        if live { StandardOutput.write(renderer.heading(parsed, catalog: catalog), what: "the trace") }
        let report = Simulation(policy: policy, scenario: parsed, folder: folder.path, recorder: recorder).runAndWait()
        switch format {
        case .json:
            StandardOutput.write(TraceJSONRenderer().render(report, catalog: catalog), what: "the trace")
        case .text:
            printer.endLine()
            StandardOutput.write(renderer.summary(report), what: "the trace")
        }
        // The process ends here, so the deferred removal would not run.
        folder.removeIfTemporary()
        ProcessExit.now(report.exitStatus, keeping: policy)
    }
}
