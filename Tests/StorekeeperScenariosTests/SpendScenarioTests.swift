import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// The `spend` action and the `overdrawn` expectation: balances kept in
/// iCloud follow the user to another device, spends are seen there, a spend
/// retried after a crash applies once, and a scenario that misuses `spend`
/// is refused before it runs (docs/simulate.md).
@Suite struct SpendScenarioTests {
    /// Gems kept in iCloud, coins on the device.
    static let catalog = """
        catalog: gems
        format: 1
        app: {bundle-id: com.example.gems, platforms: [ios], minimum-os: "16.0"}
        balances: [gems, coins]
        products:
        \(ProductText.product(id: "com.example.gems.100", type: "consumable", delivery: "{model: built-in, grants: {gems: 100}}", persistence: "icloud", restore: "none"))\
        \(ProductText.product(id: "com.example.coins.100", type: "consumable", delivery: "{model: built-in, grants: {coins: 100}}", persistence: "app-state", restore: "none"))
        """

    static func run(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> SimulationReport {
        let policy = try ScenarioParsing.policy(catalog: catalog.replacingOccurrences(of: "    delivery:", with: "    max-quantity: 5\n    delivery:"))
        let scenario = try ScenarioParsing.scenario(text, sourceLocation: sourceLocation)
        let problems = ScenarioCheck.check(scenario, policy: policy)
        #expect(problems.isEmpty, "\(ScenarioParsing.describe(problems))", sourceLocation: sourceLocation)
        let folderURL = try ScratchFolder.create(prefix: "storekeeper-spend-scenarios")
        defer { ScratchFolder.remove(folderURL) }
        let folder = folderURL.path
        return await Simulation(policy: policy, scenario: scenario, folder: folder).run()
    }

    static func expectPassed(_ report: SimulationReport, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(report.error == nil, "stopped: \(report.error.map { "\($0.location): \($0.message)" } ?? "")", sourceLocation: sourceLocation)
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.location): \($0.key): \($0.reason ?? "")" }.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        #expect(!report.expectations.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func gemsBoughtOnThePhoneAreOnTheIPadAndASpendOnOneIsSeenOnTheOther() async throws {
        let report = try await Self.run("""
            device: phone
            steps:
              - launch
              - buy: {product: com.example.gems.100, quantity: 3}
              - buy: com.example.gems.100
              - buy: com.example.coins.100
              - expect: {balances: {gems: 400, coins: 100}}
              - launch: ipad
              - expect: {balances: {gems: 400, coins: 0}}
              - spend: {balance: gems, amount: 150, key: castle}
              - expect: {balances: {gems: 250}, told: [spent castle]}
              - launch: phone
              - expect: {balances: {gems: 250, coins: 100}}
              - spend: {balance: gems, amount: 300, key: dragon}
              - expect: {balances: {gems: 250}, told: [spend refused dragon insufficient-balance]}
              - spend: {balance: gems, amount: 150, key: castle}
              - expect: {balances: {gems: 250}, told: [spent castle]}
            """)
        Self.expectPassed(report)
    }

    @Test(arguments: ["journalled", "sent"])
    func aSpendRetriedAfterACrashAppliesOnce(_ moment: String) async throws {
        let report = try await Self.run("""
            steps:
              - launch
              - buy: {product: com.example.gems.100, quantity: 2}
              - expect: {balances: {gems: 200}}
              - spend: {balance: gems, amount: 50, key: hat, crash: \(moment)}
              - expect: {told: []}
              - launch
              - spend: {balance: gems, amount: 50, key: hat}
              - expect: {balances: {gems: 150}, told: [spent hat]}
              - launch: ipad
              - expect: {balances: {gems: 150}}
            """)
        Self.expectPassed(report)
        #expect(report.events.contains { if case .crashed(_, let point) = $0 { point == "after spend \(moment)" } else { false } })
    }

    @Test func coinsSpentAndThenRefundedAreOverdrawn() async throws {
        let report = try await Self.run("""
            steps:
              - launch
              - buy: {product: com.example.coins.100, as: bag}
              - spend: {balance: coins, amount: 70, key: sword}
              - refund: bag
              - expect: {balances: {coins: 0}, overdrawn: {coins: 70}}
              - buy: {product: com.example.coins.100, quantity: 2}
              - expect: {balances: {coins: 130}, overdrawn: {coins: 0}}
            """)
        Self.expectPassed(report)
    }

    @Test func aSpendTheScenarioCannotMakeIsAnErrorBeforeAnythingRuns() throws {
        let policy = try ScenarioParsing.policy(catalog: Self.catalog)
        let parsed = ScenarioParser().parse(Array("""
            steps:
              - spend: {balance: gem, amount: 1, key: a}
              - launch
              - spend: {balance: coins, amount: 0, key: b}
              - spend: {balance: coins, amount: 1}
              - spend: {balance: coins, amount: 1, key: c, crash: sent}
              - expect: {overdrawn: {gold: 1}}
            """.utf8), file: "scenario.yaml", checkingAgainst: policy)
        #expect(parsed.scenario == nil)
        let described = ScenarioParsing.describe(parsed.diagnostics)
        #expect(described.contains("scenario-app-state"), "\(described)")
        #expect(described.contains("'gem'") && described.contains("scenario-undeclared"), "\(described)")
        #expect(described.contains("scenario-value") || described.contains("scenario-limit"), "amount 0: \(described)")
        #expect(described.contains("scenario-missing") && described.contains("key"), "\(described)")
        #expect(described.contains("scenario-not-applicable") && described.contains("kept on the device"), "\(described)")
        #expect(described.contains("'gold'"), "\(described)")
    }
}
