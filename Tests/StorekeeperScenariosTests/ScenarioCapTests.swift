import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperScenarios
import StorekeeperSimulatedStore
import Testing

/// The scenario's 1,000 cap is the one cap (`DiagnosticCap`): its count has
/// the highest severity left out, so warnings past the limit do not become
/// an error that fails the scenario (issue 15, item 11 follow-up).
@Suite struct ScenarioCapTests {
    @Test func warningsPastTheLimitAreCountedAsAWarning() {
        let result = ScenarioParsing.parse("steps:\n" + String(repeating: "  - expect: {}\n", count: 1_500))
        #expect(result.diagnostics.count == 1_001)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(result.diagnostics.filter { $0.rule == "scenario-limit" }.map(\.message) == [
            "500 more problems were found and not listed (at most 1000 are listed for a scenario); fix these and run again",
        ])
    }
}
