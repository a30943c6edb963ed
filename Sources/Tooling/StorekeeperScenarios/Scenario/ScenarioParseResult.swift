import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore

/// The outcome of reading one scenario file: the scenario when it is valid,
/// and every problem found, in reading order.
public struct ScenarioParseResult: Sendable {
    /// The scenario; nil when any diagnostic is an error.
    public var scenario: Scenario?
    /// YAML problems, unknown keys, wrong types and values, limits.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(scenario: Scenario?, diagnostics: [Diagnostic]) {
        self.scenario = scenario
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
