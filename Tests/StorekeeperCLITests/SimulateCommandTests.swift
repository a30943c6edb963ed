import Foundation
import Testing

/// `storekeeper simulate CATALOG SCENARIO`, end to end on the built
/// executable: exit statuses, located failures and diagnostics, the JSON
/// trace, `--seed`, `--state` and `--quiet` (docs/simulate.md).
@Suite("simulate")
struct SimulateCommandTests {
    static let catalog = PackagePaths.catalogs.appendingPathComponent("rocket-racer/catalog.yaml").path
    static let shipped = "Catalogs/rocket-racer/scenarios/testing-steps.yaml"

    /// A scenario with one wrong expectation: 500 coins bought, 400 expected (line 5, the value at column 17).
    static let wrongBalance = """
        steps:
          - launch
          - buy: com.example.rocketracer.coins.500
          - expect:
              balances: {coins: 400}
              unfinished: 0

        """

    /// The whole of standard output as one JSON object.
    static func json(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: result.stdoutData)
        return try #require(value as? [String: Any], "not a JSON object: \(result)", sourceLocation: sourceLocation)
    }

    /// The transaction identifiers of the `store` events, in order of first appearance.
    static func transactionIDs(_ document: [String: Any]) throws -> [String] {
        let events = try #require(document["events"] as? [[String: Any]])
        var seen = Set<String>()
        return events.filter { $0["kind"] as? String == "store" }
            .compactMap { $0["transaction"] as? String }
            .filter { seen.insert($0).inserted }
    }

    // MARK: Exit status

    @Test("the shipped Rocket Racer scenario exits 0 with a `passed:` summary")
    func shippedScenarioPasses() async throws {
        let result = try await CLI.run(["simulate", "Catalogs/rocket-racer/catalog.yaml", Self.shipped], in: PackagePaths.root)
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 0, "\(result)")
        let summary = try #require(result.lastStdoutLine)
        #expect(summary.hasPrefix("passed: ") && summary.hasSuffix(" expectations held"), "\(summary)")
        #expect(!result.stdout.contains(": error: "), "no failure is reported")
        #expect(result.stdout.hasPrefix("simulate Catalogs/rocket-racer/catalog.yaml with \(Self.shipped)"), "\(result.stdout.prefix(200))")
        #expect(result.stdout.contains("[1] launch (\(Self.shipped):"))
        #expect(result.stderr == "")
    }

    @Test("a wrong expectation exits 1 with `file:line:column: error: expectation failed: ...`")
    func wrongExpectationExitsOne() async throws {
        let workspace = try Workspace()
        try workspace.write("wrong.yaml", Self.wrongBalance)
        let result = try await workspace.run("simulate", Self.catalog, "wrong.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("wrong.yaml:5:17: error: expectation failed: balances: coins: expected 400, found 500"), "\(result)")
        #expect(lines.filter { $0.contains(": error: expectation failed:") }.count == 1, "the passing `unfinished` is not reported")
        #expect(result.lastStdoutLine == "failed: 1 of 2 expectations failed", "\(result)")
    }

    @Test("an unknown product exits 2 with a located did-you-mean, before anything runs")
    func unknownProductExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write("unknown.yaml", """
            steps:
              - launch
              - buy: com.example.rocketracer.coins.50

            """)
        let result = try await workspace.run("simulate", Self.catalog, "unknown.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(result)")
        let diagnostic = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("unknown.yaml:3:10: error: ") }, "\(result)")
        #expect(diagnostic.contains("com.example.rocketracer.coins.50'"), "\(diagnostic)")
        #expect(diagnostic.contains("did you mean 'com.example.rocketracer.coins.500'"), "\(diagnostic)")
        #expect(result.stdout == "", "nothing ran: \(result.stdout.prefix(300))")
    }

    @Test("a YAML syntax error exits 2 with a located diagnostic")
    func syntaxErrorExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write("syntax.yaml", """
            steps:
              - launch
              - buy: {product: com.example.rocketracer.coins.500

            """)
        let result = try await workspace.run("simulate", Self.catalog, "syntax.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(result)")
        let located = result.stderr.split(separator: "\n").first {
            $0.range(of: #"^syntax\.yaml:\d+:\d+: error: "#, options: .regularExpression) != nil
        }
        #expect(located != nil, "\(result)")
        #expect(result.stderr.contains("[yaml-syntax]"), "\(result)")
        #expect(result.stdout == "")
    }

    @Test("an action sure to fail (buy before launch) exits 2 at that action, before anything runs")
    func buyBeforeLaunchExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write("early.yaml", """
            steps:
              - buy: com.example.rocketracer.coins.500
              - launch

            """)
        let result = try await workspace.run("simulate", "--color", "never", Self.catalog, "early.yaml")
        #expect(result.status == 2, "\(result)")
        let diagnostic = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("early.yaml:2:5: error: ") }, "\(result)")
        #expect(diagnostic.contains("add `launch`") && diagnostic.hasSuffix("[scenario-app-state]"), "\(diagnostic)")
        #expect(result.stdout == "", "nothing ran: \(result.stdout.prefix(300))")
    }

    @Test("an action that cannot run where only the run tells (after an armed crash) exits 2 at that action")
    func buyAfterACrashExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write("crashed.yaml", """
            steps:
              - launch
              - crash: {before: grant}
              - buy: com.example.rocketracer.coins.500
              - buy: com.example.rocketracer.coins.500

            """)
        let result = try await workspace.run("simulate", Self.catalog, "crashed.yaml")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("crashed.yaml:5:5: error: ") && $0.contains("launch") }, "\(result)")
        #expect(result.lastStdoutLine?.hasPrefix("stopped: ") == true, "\(result)")
    }

    @Test("problems of every kind in a scenario are reported in one run: the file's, the catalog's names, the order of actions")
    func everyKindOfProblemAtOnce() async throws {
        let workspace = try Workspace()
        try workspace.write("mistakes.yaml", """
            steps:
              - buy: com.example.rocketracer.coins.500
              - launch
              - buy: {product: com.example.rocketracer.coins.50, quantity: many}
              - expect:
                  features: [rocketcar]
                  unfinished: lots

            """)
        let result = try await workspace.run("simulate", "--color", "never", Self.catalog, "mistakes.yaml")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "", "nothing ran: \(result.stdout.prefix(300))")
        let located = result.stderr.split(separator: "\n").filter { $0.hasPrefix("mistakes.yaml:") && $0.contains(": error: ") }
            .map { line in String(line.prefix { $0 != " " }) + " " + String(line.split(separator: "[").last ?? "") }
        #expect(located == [
            "mistakes.yaml:2:5: scenario-app-state]",
            "mistakes.yaml:4:20: scenario-unknown-product]",
            "mistakes.yaml:4:64: scenario-value]",
            "mistakes.yaml:6:17: scenario-undeclared]",
            "mistakes.yaml:7:19: scenario-value]",
        ], "\(result.stderr)")
    }

    @Test("a catalog with errors exits 2, as docs/simulate.md says: the session could not run (1 is a failed expectation)")
    func brokenCatalogExitsTwo() async throws {
        let workspace = try Workspace()
        try workspace.write("broken.yaml", "catalog: broken\n")
        try workspace.write("fine.yaml", "steps:\n  - launch\n")
        let result = try await workspace.run("simulate", "broken.yaml", "fine.yaml")
        #expect(result.exitedNormally, "\(result)")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("broken.yaml:"), "located: \(result)")
        #expect(result.stdout == "", "nothing ran: \(result.stdout.prefix(300))")
        // A compiled policy that cannot be read, the same.
        try workspace.write("damaged.json", #"{"format": "storekeeper-policy", "version": 1,,}"#)
        let damaged = try await workspace.run("simulate", "damaged.json", "fine.yaml")
        #expect(damaged.status == 2, "\(damaged)")
        #expect(damaged.stderr.hasPrefix("damaged.json:1:"), "\(damaged)")
        // `explain` of the same catalog keeps 1: its output is about the catalog.
        let explained = try await workspace.run("explain", "broken.yaml")
        #expect(explained.status == 1, "\(explained)")
        // And the help says so.
        let help = try await workspace.run("simulate", "--help")
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("1 when one failed, 2 when the session could not run: the catalog or the scenario is invalid"), "\(help.stdout)")
    }

    // MARK: Ask to Buy, durations

    /// A parent approving after the request lapsed is an outcome: the trace
    /// notes it, `ask-to-buy` checks it, and the session goes on; `advance`
    /// is echoed as written, in text and JSON alike.
    static let lateApproval = """
        steps:
          - launch
          - buy: {product: com.example.rocketracer.noads, ask-to-buy: true, as: ads}
          - advance: 25h
          - approve: ads
          - expect:
              owns: []
              ask-to-buy: {ads: expired}

        """

    @Test("`approve` after the Ask to Buy request lapsed is traced and expected, not a stop; `advance: 25h` reads `advance 25h`")
    func lateApprovalIsAnOutcome() async throws {
        let workspace = try Workspace()
        try workspace.write("late.yaml", Self.lateApproval)
        let text = try await workspace.run("simulate", Self.catalog, "late.yaml")
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("[3] advance 25h (late.yaml:4)\n"), "\(text)")
        #expect(text.stdout.contains("    note      approve came too late: the Ask to Buy request "), "\(text)")
        #expect(text.stdout.contains("    expect    ask-to-buy: ok\n"), "\(text)")
        #expect(!text.stdout.contains("PT"), "\(text)")
        #expect(text.lastStdoutLine == "passed: 2 expectations held", "\(text)")

        let json = try await workspace.run("simulate", "--format", "json", Self.catalog, "late.yaml")
        #expect(json.status == 0, "\(json)")
        let events = try #require(try Self.json(json)["events"] as? [[String: Any]])
        #expect(events.contains { $0["kind"] as? String == "action" && $0["action"] as? String == "advance 25h" }, "\(json.stdout)")
        #expect(events.contains { $0["kind"] as? String == "note" && ($0["text"] as? String)?.hasPrefix("approve came too late") == true })
        #expect(events.contains { $0["kind"] as? String == "expect" && $0["key"] as? String == "ask-to-buy" && $0["passed"] as? Bool == true })
    }

    // MARK: --format json

    @Test("`--format json` prints one JSON document: format, version, result, events, expectations")
    func jsonDocument() async throws {
        let result = try await CLI.run(["simulate", "--format", "json", "Catalogs/rocket-racer/catalog.yaml", Self.shipped], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let document = try Self.json(result)
        #expect(document["format"] as? String == "storekeeper-simulation")
        #expect((document["version"] as? NSNumber)?.intValue == 1)
        #expect(document["result"] as? String == "passed")
        #expect(document["scenario"] as? String == Self.shipped)
        let events = try #require(document["events"] as? [[String: Any]])
        #expect(events.first?["kind"] as? String == "action")
        let kinds = Set(events.compactMap { $0["kind"] as? String })
        #expect(kinds.isSuperset(of: ["action", "launch", "store", "plan", "step", "finished", "ui", "download", "expect"]), "\(kinds.sorted())")
        let expectations = try #require(document["expectations"] as? [[String: Any]])
        #expect(!expectations.isEmpty)
        #expect(expectations.allSatisfy { $0["passed"] as? Bool == true })
        #expect(expectations.allSatisfy { ($0["location"] as? String)?.hasPrefix(Self.shipped + ":") == true })
        // No text trace around it.
        #expect(!result.stdout.contains("passed: "))
    }

    @Test("`--format json` of a failed expectation: result failed, the expectation located with its reason, exit 1")
    func jsonFailure() async throws {
        let workspace = try Workspace()
        try workspace.write("wrong.yaml", Self.wrongBalance)
        let result = try await workspace.run("simulate", "--format", "json", Self.catalog, "wrong.yaml")
        #expect(result.status == 1, "\(result)")
        let document = try Self.json(result)
        #expect(document["result"] as? String == "failed")
        let expectations = try #require(document["expectations"] as? [[String: Any]])
        let failed = try #require(expectations.first { $0["passed"] as? Bool == false })
        #expect(failed["key"] as? String == "balances")
        #expect(failed["location"] as? String == "wrong.yaml:5:17")
        #expect((failed["reason"] as? String)?.contains("expected 400, found 500") == true, "\(failed)")
        #expect(expectations.filter { $0["passed"] as? Bool == true }.map { $0["key"] as? String } == ["unfinished"])
    }

    // MARK: --seed

    @Test("`--seed` changes the transaction ids; the same seed gives the same ones")
    func seedChangesIDs() async throws {
        func ids(_ seed: String) async throws -> (seed: String?, ids: [String]) {
            let result = try await CLI.run(["simulate", "--format", "json", "--seed", seed, "Catalogs/rocket-racer/catalog.yaml", Self.shipped],
                                           in: PackagePaths.root)
            #expect(result.status == 0, "\(result)")
            let document = try Self.json(result)
            return (document["seed"] as? String, try Self.transactionIDs(document))
        }
        let five = try await ids("5")
        let again = try await ids("5")
        let six = try await ids("6")
        #expect(five.seed == "5" && six.seed == "6")
        #expect(five.ids.count > 10)
        #expect(five.ids == again.ids)
        #expect(five.ids.count == six.ids.count)
        #expect(Set(five.ids).isDisjoint(with: six.ids), "\(five.ids.prefix(3)) / \(six.ids.prefix(3))")
        // The scenario's own seed (2026) gives yet others.
        let scenarioSeed = try await CLI.run(["simulate", "--format", "json", "Catalogs/rocket-racer/catalog.yaml", Self.shipped], in: PackagePaths.root)
        #expect(try Self.json(scenarioSeed)["seed"] as? String == "2026")
        #expect(Set(try Self.transactionIDs(Self.json(scenarioSeed))).isDisjoint(with: five.ids))
    }

    // MARK: --state

    @Test("`--state DIR` keeps each device's journal and downloads; a non-empty DIR is refused with exit 2")
    func stateFolder() async throws {
        let workspace = try Workspace()
        let result = try await CLI.run(["simulate", "--quiet", "--state", workspace.url.appendingPathComponent("session").path,
                                        "Catalogs/rocket-racer/catalog.yaml", Self.shipped], in: PackagePaths.root)
        #expect(result.status == 0, "\(result)")
        let session = workspace.url.appendingPathComponent("session")
        let files = FileManager.default
        #expect(files.fileExists(atPath: session.appendingPathComponent("phone/journal.sqlite").path))
        #expect(files.fileExists(atPath: session.appendingPathComponent("tablet/journal.sqlite").path))
        // The tablet downloaded the canyon track pack again into its documents, as the catalog says.
        #expect(files.fileExists(atPath: session.appendingPathComponent("tablet/Documents/StoreKit/com.example.rocketracer.tracks.canyon").path))
        #expect(files.fileExists(atPath: session.appendingPathComponent("phone/Documents/StoreKit/com.example.rocketracer.tracks.neon").path))

        let before = try files.contentsOfDirectory(atPath: session.path).sorted()
        let refused = try await CLI.run(["simulate", "--state", session.path, "Catalogs/rocket-racer/catalog.yaml", Self.shipped],
                                        in: PackagePaths.root)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("not empty"), "\(refused)")
        #expect(refused.stdout == "", "nothing ran: \(refused.stdout.prefix(300))")
        #expect(try files.contentsOfDirectory(atPath: session.path).sorted() == before)
        #expect(files.fileExists(atPath: session.appendingPathComponent("phone/journal.sqlite").path))
    }

    @Test("`--state` with a new folder creates it")
    func stateFolderCreated() async throws {
        let workspace = try Workspace()
        try workspace.write("wrong.yaml", Self.wrongBalance)
        let result = try await workspace.run("simulate", "--quiet", "--state", "new/session", Self.catalog, "wrong.yaml")
        #expect(result.status == 1, "\(result)")
        #expect(FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("new/session/phone/journal.sqlite").path))
    }

    // MARK: --quiet

    @Test("`--quiet` prints no event lines: only failed expectations and the summary")
    func quiet() async throws {
        let workspace = try Workspace()
        try workspace.write("wrong.yaml", Self.wrongBalance)
        let loud = try await workspace.run("simulate", Self.catalog, "wrong.yaml")
        let quiet = try await workspace.run("simulate", "--quiet", Self.catalog, "wrong.yaml")
        #expect(loud.status == 1 && quiet.status == 1, "\(loud)\n\(quiet)")
        // Without --quiet the trace is there (so its absence below means something).
        #expect(loud.stdout.contains("[2] buy com.example.rocketracer.coins.500 (wrong.yaml:3)"), "\(loud)")
        #expect(loud.stdout.contains("    store     "), "\(loud)")
        #expect(quiet.stdout == """
            wrong.yaml:5:17: error: expectation failed: balances: coins: expected 400, found 500
            failed: 1 of 2 expectations failed

            """, "\(quiet)")

        let passing = try await CLI.run(["simulate", "--quiet", "Catalogs/rocket-racer/catalog.yaml", Self.shipped], in: PackagePaths.root)
        #expect(passing.status == 0, "\(passing)")
        let lines = passing.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(passing)")
        #expect(lines.first?.hasPrefix("passed: ") == true, "\(passing)")
    }
}
