import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import Testing

/// `ScenarioParser.parse(_:file:checkingAgainst:)`: one run reports every
/// problem of a scenario, of each kind at once (the file's, the catalog's
/// names, the order of actions), instead of one kind per run (issue 16).
@Suite struct ScenarioCheckedParsingTests {
    static let rocket = "com.example.rocketracer"

    /// `text` as `scenario.yaml`, parsed and checked against Rocket Racer.
    static func checked(_ text: String) throws -> ScenarioParseResult {
        ScenarioParser().parse(Array(text.utf8), file: "scenario.yaml", checkingAgainst: try ScenarioParsing.policy("rocket-racer"))
    }

    @Test func problemsOfEveryKindAreReportedInOneRun() throws {
        let result = try Self.checked("""
            steps:
              - buy: \(Self.rocket).coins.500
              - launch
              - buy: {product: \(Self.rocket).coins.50, quantity: many, as: pouch}
              - resolve: \(Self.rocket).noads
              - lauch
              - approve: pouch
              - expect:
                  features: [rocketcar]
                  unfinished: lots
              - quit
              - restore
            """)
        #expect(result.scenario == nil)
        #expect(ScenarioParsing.describe(result.diagnostics) == """
            2:5 scenario-app-state: `buy` needs the app running, and it does not run here (not before the first `launch`, nor after `quit` or `crash`): add `launch` (or `relaunch`) before it
            4:20 scenario-unknown-product: the catalog 'rocket-racer' has no product 'com.example.rocketracer.coins.50'; did you mean 'com.example.rocketracer.coins.500'?
            4:64 scenario-value: 'quantity' must be a whole number from 1 to 9223372036854775807, not 'many'
            5:14 scenario-unknown-name: no purchase of 'com.example.rocketracer.noads' is made before this, and a product id refers to the latest purchase of the product; `buy` it first, or move this after its buy
            6:5 scenario-unknown-action: 'lauch' is not an action; did you mean 'launch'?
            7:14 scenario-not-applicable: 'pouch' is bought without `ask-to-buy: true`, so there is no request to approve; add `ask-to-buy: true` to its buy
            9:17 scenario-undeclared: the catalog declares no feature 'rocketcar'; did you mean 'rocket-car'?
            10:19 scenario-value: 'unfinished' must be a whole number from 0 to 9223372036854775807, not 'lots'
            12:5 scenario-app-state: `restore` needs the app running, and it does not run here (not before the first `launch`, nor after `quit` or `crash`): add `launch` (or `relaunch`) before it
            """)
        // Without the catalog, only the file's own problems: the rest were the second and third runs.
        let unchecked = ScenarioParsing.parse("""
            steps:
              - buy: \(Self.rocket).coins.500
              - launch
              - buy: {product: \(Self.rocket).coins.50, quantity: many, as: pouch}
              - lauch
            """)
        #expect(unchecked.diagnostics.map(\.rule) == ["scenario-value", "scenario-unknown-action"])
    }

    @Test func whatAnUnreadableStepGivesIsStillKnownToTheStepsAfterIt() throws {
        // A buy with a malformed product still gives `coins`; a misspelt action
        // may have been a launch; an `as` beside the buy still names it. Only
        // their own problems are reported, and the catalog's after them.
        let result = try Self.checked("""
            steps:
              - launch
              - buy: {product: "com.example.rocket racer", as: coins, ask-to-buy: true}
              - approve: coins
              - quit
              - lanch
              - buy: \(Self.rocket).noads
                as: ads
              - refund: ads
              - expect: {unfinished: [coins, ads]}
              - cancel-renewal: \(Self.rocket).noads
            """)
        #expect(result.diagnostics.map(\.rule) == ["scenario-value", "scenario-unknown-action", "scenario-type", "scenario-not-applicable"],
                "\(ScenarioParsing.describe(result.diagnostics))")
    }

    @Test func theOrderOfActionsIsCheckedOnlyWhereItIsCertain() throws {
        let sure = try Self.checked("""
            steps:
              - expect: {balances: {coins: 0}}
              - launch
              - launch
              - launch: tablet
              - launch: tablet
              - crash
              - crash
              - launch
              - buy: {product: \(Self.rocket).noads, as: ads}
              - expect: {ask-to-buy: {ads: waiting}}
              - decline: ads
              - refund: \(Self.rocket).coins.500
            """)
        #expect(ScenarioParsing.describe(sure.diagnostics) == """
            2:5 scenario-app-state: `expect` of features, owns, subscriptions, balances or overdrawn reads the running app, and the app does not run here (not before the first `launch`, nor after `quit` or `crash`): `launch` it first
            4:5 scenario-app-state: the app is already running on phone here; `relaunch` restarts it, `launch: OTHER` switches devices
            6:5 scenario-app-state: the app is already running on tablet here; `relaunch` restarts it, `launch: OTHER` switches devices
            8:5 scenario-app-state: `crash` needs the app running, and it does not run here (not before the first `launch`, nor after `quit` or `crash`): add `launch` (or `relaunch`) before it
            11:26 scenario-not-applicable: 'ads' is bought without `ask-to-buy: true`, so it made no request to expect; add `ask-to-buy: true` to its buy, or leave it out of `ask-to-buy`
            12:14 scenario-not-applicable: 'ads' is bought without `ask-to-buy: true`, so there is no request to decline; add `ask-to-buy: true` to its buy
            13:13 scenario-unknown-name: no purchase of 'com.example.rocketracer.coins.500' is made before this, and a product id refers to the latest purchase of the product; `buy` it first, or move this after its buy
            """)
        // Once a crash is armed, the app may die at any plan: whether it runs is no longer sure, until it is quit.
        let armed = try Self.checked("""
            steps:
              - launch
              - crash: {before: grant}
              - buy: \(Self.rocket).coins.500
              - launch
              - buy: \(Self.rocket).coins.500
              - quit
              - buy: \(Self.rocket).coins.500
            """)
        #expect(ScenarioParsing.describe(armed.diagnostics) == """
            8:5 scenario-app-state: `buy` needs the app running, and it does not run here (not before the first `launch`, nor after `quit` or `crash`): add `launch` (or `relaunch`) before it
            """)
    }

    @Test func everyShippedScenarioIsCleanWhenChecked() throws {
        let root = "\(ScenarioParsing.packageRoot)/Catalogs"
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        var checked = 0
        for catalog in catalogs {
            let folder = "\(root)/\(catalog)/scenarios"
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let policy = try ScenarioParsing.policy(catalog)
            for file in files.sorted() where file.hasSuffix(".yaml") {
                let result = ScenarioParser().load("\(folder)/\(file)", checkingAgainst: policy)
                #expect(result.diagnostics.isEmpty, "\(catalog)/\(file): \(ScenarioParsing.describe(result.diagnostics))")
                #expect(result.scenario != nil)
                checked += 1
            }
        }
        #expect(checked >= 3)
    }

    @Test func theFilesAndTheCatalogsProblemsShareOneCeiling() throws {
        let text = "steps:\n  - launch\n"
            + String(repeating: "  - buy: {product: com.example.nothing, quantity: 0}\n", count: 600)
        let result = try Self.checked(text)
        #expect(result.diagnostics.count == 1_001)
        #expect(result.diagnostics.filter { $0.rule == "scenario-value" }.count == 600)
        #expect(result.diagnostics.filter { $0.rule == "scenario-limit" }.map(\.message) == [
            "200 more problems were found and not listed (at most 1000 are listed for a scenario); fix these and run again",
        ])
    }
}
