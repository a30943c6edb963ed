import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperSimulatedStore

/// The outcome of reading one scenario file: the scenario when it is valid,
/// and every problem found, in reading order.
public struct ScenarioParseResult: Sendable {
    /// The scenario; nil when any diagnostic is an error.
    public var scenario: Scenario?
    /// YAML problems, unknown keys, wrong types and values, limits.
    public var diagnostics: [Diagnostic]
    /// Everything that could be read, even when there are errors: the
    /// actions read whole or in part, and the items that gave none; nil when
    /// the file is no mapping of keys (a YAML syntax error, say). It is
    /// checked against a catalog, never run.
    var draft: (scenario: Scenario, skipped: [SkippedStep])?
    /// Whether the decoder listed all it found, or left some out (past its ceiling).
    var isComplete = true

    /// Creates a result.
    public init(scenario: Scenario?, diagnostics: [Diagnostic]) {
        self.scenario = scenario
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
