import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import Testing
import StorekeeperTestSupport

/// `Simulation`: the shipped scenarios pass, runs are deterministic under a
/// seed, failed expectations are located and do not stop the session, an
/// action that cannot run does, and crashes around `grant` and `finish`
/// still deliver a consumable exactly once (docs/simulate.md).
@Suite struct SimulationTests {
    // MARK: The shipped scenarios

    /// Every `Catalogs/NAME/scenarios/*.yaml`, relative to the package root, read from disk.
    static func scenarioFiles() -> [String] {
        ShippedScenarios.files()
    }

    @Test func everyExampleCatalogHasAScenario() throws {
        let catalogs = try ShippedScenarios.catalogDirectories()
        #expect(!catalogs.isEmpty)
        let files = Self.scenarioFiles()
        for catalog in catalogs {
            #expect(files.contains { $0.hasPrefix("Catalogs/\(catalog)/scenarios/") },
                    "Catalogs/\(catalog) has no scenario (Catalogs/\(catalog)/scenarios/*.yaml)")
        }
    }

    @Test(arguments: scenarioFiles())
    func aShippedScenarioPasses(_ file: String) async throws {
        let (policy, scenario) = try ShippedScenarios.load(file)
        let report = try await SimulationRun.run(policy: policy, scenario: scenario)
        #expect(report.error == nil, "\(file): stopped: \(report.error.map { "\($0.location): \($0.message)" } ?? "")")
        #expect(report.failures.isEmpty, "\(file):\n\(report.failures.map { "\($0.location): \($0.key): \($0.reason ?? "")" }.joined(separator: "\n"))")
        #expect(!report.expectations.isEmpty, "\(file) checks nothing")
        #expect(report.exitStatus == 0)
    }

    /// docs/simulate.md: "What a session prints depends only on the catalog,
    /// the scenario and the seed". Two runs, the JSON trace compared byte for byte.
    @Test(arguments: scenarioFiles())
    func aRunIsDeterministic(_ file: String) async throws {
        let (policy, scenario) = try ShippedScenarios.load(file)
        let renderer = TraceJSONRenderer()
        let first = renderer.render(try await SimulationRun.run(policy: policy, scenario: scenario), catalog: "catalog.yaml")
        #expect(first.count > 1_000)
        // More runs: before the store sent each operation's events in one piece, about one run in four differed.
        var differences: [String] = []
        for _ in 0..<5 {
            let again = renderer.render(try await SimulationRun.run(policy: policy, scenario: scenario), catalog: "catalog.yaml")
            if let difference = Self.firstDifference(first, again) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "\(file), seed \(scenario.seed): \(differences.joined(separator: "\n"))")
    }

    /// Within each action, the same events (identifiers, dates, progress,
    /// outcomes): a weaker check than the one above, which says where a run differs.
    @Test(arguments: scenarioFiles())
    func aRunHasTheSameEventsInEachActionEveryTime(_ file: String) async throws {
        let (policy, scenario) = try ShippedScenarios.load(file)
        let first = try await SimulationRun.run(policy: policy, scenario: scenario).eventsByAction
        #expect(first.count == scenario.steps.count)
        for _ in 0..<3 {
            let again = try await SimulationRun.run(policy: policy, scenario: scenario).eventsByAction
            #expect(again.count == first.count)
            for (index, (a, b)) in zip(first, again).enumerated() where a != b {
                Issue.record("\(file): action \(index + 1) (line \(scenario.steps[index].location.line)) has other events: \(a.count) then \(b.count); only in the first: \(a.filter { !b.contains($0) }.prefix(3)); only in the second: \(b.filter { !a.contains($0) }.prefix(3))")
            }
        }
    }

    /// The first line where two texts differ, described; nil when they are the same.
    static func firstDifference(_ first: String, _ second: String) -> String? {
        guard first != second else { return nil }
        let a = first.split(separator: "\n", omittingEmptySubsequences: false)
        let b = second.split(separator: "\n", omittingEmptySubsequences: false)
        let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return "line \(index + 1) of the JSON trace: \(index < a.count ? String(a[index]) : "(end)") / \(index < b.count ? String(b[index]) : "(end)")"
    }

    @Test func anotherSeedChangesTheTransactionIds() async throws {
        let file = "Catalogs/rocket-racer/scenarios/testing-steps.yaml"
        var (policy, scenario) = try ShippedScenarios.load(file)
        let first = try await SimulationRun.run(policy: policy, scenario: scenario)
        scenario.seed += 1
        let second = try await SimulationRun.run(policy: policy, scenario: scenario)
        #expect(first.passed && second.passed, "the scenario names purchases, never ids: it passes under any seed")
        let a = first.transactionIDs, b = second.transactionIDs
        #expect(a.count == b.count && a.count > 10)
        #expect(Set(a).isDisjoint(with: b), "seed \(scenario.seed - 1): \(a.prefix(3)), seed \(scenario.seed): \(b.prefix(3))")
        // Only the identifiers change: the same products go through the same states.
        #expect(first.storeReports.map { "\($0.productID) \($0.state)" } == second.storeReports.map { "\($0.productID) \($0.state)" })
    }

    // MARK: Expectations

    @Test func aFailedExpectationIsLocatedWithWhatWasExpectedAndFoundAndTheSessionGoesOn() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - launch
              - buy: com.example.rocketracer.coins.500
              - expect:
                  balances: {coins: 400}
                  unfinished: 0
              - buy: com.example.rocketracer.vehicle.rocketcar
              - expect:
                  features: [hover-truck]
              - expect:
                  balances: {coins: 500}
                  owns: [com.example.rocketracer.vehicle.rocketcar]
            """)
        #expect(report.error == nil)
        #expect(report.exitStatus == 1)
        #expect(!report.passed)
        // Each expect's keys are checked in the runner's order (features, owns, ..., balances, unfinished), not the file's.
        #expect(report.expectations.map { "\($0.key) \($0.passed)" }.sorted()
                == ["balances false", "balances true", "features false", "owns true", "unfinished true"])
        let failures = report.failures
        #expect(failures.count == 2)
        let balance = try #require(failures.first)
        #expect(balance.key == "balances")
        #expect(balance.location == "scenario.yaml:5:17", "\(balance.location)")
        let reason = try #require(balance.reason)
        #expect(reason.contains("coins") && reason.contains("expected 400") && reason.contains("found 500"), "\(reason)")
        let features = try #require(failures.last)
        #expect(features.key == "features")
        #expect(features.location == "scenario.yaml:9:17", "\(features.location)")
        #expect(features.reason?.contains("hover-truck") == true && features.reason?.contains("rocket-car") == true, "\(features.reason ?? "")")
        // The second `buy` ran after the failed expectation.
        #expect(report.storeReports.contains { $0.productID == "com.example.rocketracer.vehicle.rocketcar" && $0.state == .purchased })
        // The trace shows each outcome too.
        let traced = report.events.compactMap { event -> ExpectationResult? in
            if case .expectation(let result) = event { result } else { nil }
        }
        #expect(traced == report.expectations)
    }

    @Test func buyingBeforeLaunchStopsTheSessionWithAnErrorAtThatStep() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - expect:
                  unfinished: 0
              - buy: com.example.rocketracer.coins.500
              - launch
              - expect:
                  balances: {coins: 500}
            """)
        let error = try #require(report.error)
        #expect(error.location.file == "scenario.yaml")
        #expect(ScenarioParsing.at(error.location) == "4:5", "\(error.location)")
        #expect(error.message.contains("launch"), "\(error.message)")
        #expect(report.exitStatus == 2)
        #expect(!report.passed)
        // Nothing after it ran: the expectation before it did, the store saw no payment, the later expect never ran.
        #expect(report.expectations.map(\.key) == ["unfinished"])
        #expect(report.storeReports.isEmpty)
        #expect(!report.events.contains(.launched(device: "phone")))
    }

    // MARK: Ask to Buy

    /// An approval after the request lapsed is an outcome (the trace notes
    /// it, `ask-to-buy` checks it), not an action that stops the session.
    @Test func anApprovalAfterTheRequestLapsedIsTracedAndExpectedAndTheSessionGoesOn() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - launch
              - buy: {product: com.example.rocketracer.noads, ask-to-buy: true, as: ads}
              - expect: {ask-to-buy: {ads: waiting}}
              - advance: 25h
              - approve: ads
              - expect:
                  owns: []
                  ask-to-buy: {ads: expired}
                  told: []
              - expect:
                  ask-to-buy: {ads: approved}
              - buy: com.example.rocketracer.vehicle.hovertruck
              - expect:
                  owns: [com.example.rocketracer.vehicle.hovertruck]
            """)
        #expect(report.error == nil, "\(report.error?.message ?? "")")
        #expect(report.expectations.map { "\($0.key) \($0.passed)" } == [
            "ask-to-buy true", "owns true", "ask-to-buy true", "told true", "ask-to-buy false", "owns true",
        ])
        let failure = try #require(report.failures.first)
        #expect(failure.location == "scenario.yaml:12:19", "\(failure.location)")
        #expect(failure.reason == "ads: expected approved, found expired")
        #expect(report.exitStatus == 1)
        let notes = report.events.compactMap { event -> String? in if case .note(let text) = event { text } else { nil } }
        #expect(notes.contains { $0.hasPrefix("approve came too late: the Ask to Buy request ") && $0.hasSuffix("; nothing changes") }, "\(notes)")
    }

    // MARK: The trace

    @Test func theTraceEchoesDurationsAsTheScenarioWritesThem() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - advance: 25h
              - advance: P1M
              - advance: 90m
            """)
        let actions = report.events.compactMap { event -> String? in if case .action(_, _, let text) = event { text } else { nil } }
        #expect(actions == ["advance 25h", "advance P1M", "advance 90m"])
        let text = report.events.map { TraceTextRenderer().line($0, file: "scenario.yaml") }.joined()
        #expect(text.contains("[1] advance 25h (scenario.yaml:2)\n"), "\(text)")
        let json = TraceJSONRenderer().render(report, catalog: "catalog.yaml")
        #expect(json.contains(#""action": "advance 25h""#), "\(json)")
        #expect(!json.contains("PT") && !text.contains("PT"))
    }

    // MARK: Crashes

    @Test(arguments: [
        ("before", "persist"), ("before", "grant"), ("before", "audit-log"), ("before", "notify"), ("before", "finish"), ("after", "finish"),
    ])
    func aCrashThenARelaunchDeliversAConsumableExactlyOnce(_ moment: String, _ step: String) async throws {
        let report = try await SimulationRun.run("""
            steps:
              - launch
              - crash: {\(moment): \(step)}
              - buy: {product: com.example.rocketracer.coins.500, as: pouch}
              - relaunch
              - expect:
                  balances: {coins: 500}
                  unfinished: 0
              - relaunch
              - expect:
                  balances: {coins: 500}
                  unfinished: 0
            """)
        #expect(report.passed, "\(report.failures.map { "\($0.key): \($0.reason ?? "")" }) \(report.error?.message ?? "")")
        #expect(report.expectations.count == 4)
        let crashes = report.events.filter { if case .crashed = $0 { true } else { false } }
        #expect(crashes == [.crashed(device: "phone", point: "\(moment) \(step)")])
        let purchases = report.storeReports.filter { $0.state == .purchased }
        let id = try #require(purchases.first?.id)
        #expect(Set(purchases.map(\.id)) == [id], "one transaction only")
        // (The grant step itself may run twice: what the crash kept from committing runs again; its effect counts once.)
        #expect(report.events.filter { $0 == .finished(transactionID: id) }.count == 1)
    }

    @Test func aCrashBeforeGrantLeavesTheTransactionUnfinishedUntilTheRelaunch() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - launch
              - crash: {before: grant}
              - buy: {product: com.example.rocketracer.coins.500, as: pouch}
              - expect:
                  unfinished: [pouch]
              - relaunch
              - expect:
                  balances: {coins: 500}
                  unfinished: 0
            """)
        #expect(report.passed, "\(report.failures.map { "\($0.key): \($0.reason ?? "")" }) \(report.error?.message ?? "")")
        // The relaunch got it again from the store.
        #expect(report.storeReports.contains { $0.note == "redelivered" && $0.state == .purchased })
    }

    @Test func afterACrashTheAppIsNotRunning() async throws {
        let report = try await SimulationRun.run("""
            steps:
              - launch
              - crash: {before: grant}
              - buy: com.example.rocketracer.coins.500
              - expect:
                  balances: {coins: 500}
            """)
        let error = try #require(report.error)
        #expect(ScenarioParsing.at(error.location) == "5:5")
        #expect(error.message.contains("launch"), "\(error.message)")
        #expect(report.exitStatus == 2)
    }
}

// MARK: - Support

/// The scenarios shipped under `Catalogs/`, and the catalogs they run against.
private enum ShippedScenarios {
    /// The names of the folders under `Catalogs/` that hold a `catalog.yaml`.
    static func catalogDirectories() throws -> [String] {
        let root = "\(ScenarioParsing.packageRoot)/Catalogs"
        return try FileManager.default.contentsOfDirectory(atPath: root)
            .filter { FileManager.default.fileExists(atPath: "\(root)/\($0)/catalog.yaml") }
            .sorted()
    }

    /// `Catalogs/NAME/scenarios/FILE.yaml` for every scenario on disk.
    static func files() -> [String] {
        let root = "\(ScenarioParsing.packageRoot)/Catalogs"
        var files: [String] = []
        for catalog in (try? catalogDirectories()) ?? [] {
            let folder = "\(root)/\(catalog)/scenarios"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                files.append("Catalogs/\(catalog)/scenarios/\(name)")
            }
        }
        return files.sorted()
    }

    /// A scenario file (relative to the package root) parsed and checked against its catalog, compiled.
    static func load(_ file: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (CompiledPolicy, Scenario) {
        let catalogFolder = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().relativePath
        let policy = try policy(in: "\(ScenarioParsing.packageRoot)/\(catalogFolder)")
        let text = try String(contentsOfFile: "\(ScenarioParsing.packageRoot)/\(file)", encoding: .utf8)
        let parsed = ScenarioParser().parse(text, file: file)
        #expect(parsed.diagnostics.isEmpty, "\(ScenarioParsing.describe(parsed.diagnostics))", sourceLocation: sourceLocation)
        let scenario = try #require(parsed.scenario, sourceLocation: sourceLocation)
        let problems = ScenarioCheck.check(scenario, policy: policy)
        #expect(problems.isEmpty, "\(file): \(ScenarioParsing.describe(problems))", sourceLocation: sourceLocation)
        return (policy, scenario)
    }

    /// A catalog folder's `catalog.yaml`, compiled with a stand-in for each
    /// step its `storekeeper.yml` names (`steps: [a, b]`), as `simulate` does.
    static func policy(in folder: String) throws -> CompiledPolicy {
        var plugins = PluginRegistry()
        if let configuration = try? String(contentsOfFile: "\(folder)/storekeeper.yml", encoding: .utf8) {
            for line in configuration.split(separator: "\n") where line.hasPrefix("steps:") {
                let list = try #require(line.firstIndex(of: "[").flatMap { open in line.firstIndex(of: "]").map { line[line.index(after: open)..<$0] } },
                                        "\(folder)/storekeeper.yml: `steps:` is not a flow list; teach this helper its form")
                for name in list.split(separator: ",") {
                    try plugins.register(StandInStep(name: name.trimmingCharacters(in: .whitespaces)))
                }
            }
        }
        return try PolicyLoader(plugins: plugins).load(contentsOf: "\(folder)/catalog.yaml")
    }
}

/// Runs a simulation in a temporary folder, removed afterwards.
private enum SimulationRun {
    static func run(policy: CompiledPolicy, scenario: Scenario) async throws -> SimulationReport {
        let folderURL = try ScratchFolder.create(prefix: "storekeeper-simulation-tests")
        defer { ScratchFolder.remove(folderURL) }
        let folder = folderURL.path
        return await Simulation(policy: policy, scenario: scenario, folder: folder).run()
    }

    /// An inline scenario (`scenario.yaml`) against Rocket Racer.
    static func run(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> SimulationReport {
        let policy = try ScenarioParsing.policy("rocket-racer")
        let scenario = try ScenarioParsing.scenario(text, sourceLocation: sourceLocation)
        let problems = ScenarioCheck.check(scenario, policy: policy)
        #expect(problems.isEmpty, "\(ScenarioParsing.describe(problems))", sourceLocation: sourceLocation)
        return try await run(policy: policy, scenario: scenario)
    }
}

private extension SimulationReport {
    /// What the store reported, in order.
    var storeReports: [TransactionReport] {
        events.compactMap { if case .store(let report) = $0 { report } else { nil } }
    }

    /// Each action's events (the `action` event first), as sorted descriptions.
    var eventsByAction: [[String]] {
        var groups: [[String]] = []
        for event in events {
            if case .action = event { groups.append([]) }
            if groups.isEmpty { groups.append([]) }
            groups[groups.count - 1].append(String(describing: event))
        }
        return groups.map { $0.sorted() }
    }

    /// Every transaction identifier the store reported, first appearance order.
    var transactionIDs: [String] {
        var seen = Set<String>()
        return storeReports.map(\.id).filter { seen.insert($0).inserted }
    }
}
