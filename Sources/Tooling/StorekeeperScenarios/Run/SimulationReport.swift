import StorekeeperCore
public import StorekeeperDiagnostics
public import StorekeeperSimulatedStore

/// What a session did: its trace, each expectation's outcome, and the
/// action that could not run, if one stopped it.
public struct SimulationReport: Sendable {
    /// An action that could not run, and where it was written.
    public struct Failure: Sendable, Hashable {
        /// What went wrong and what would be right.
        public var message: String
        /// The action's place in the scenario.
        public var location: SourceLocation
    }

    /// The scenario run.
    public var scenario: Scenario
    /// Everything that happened, in order.
    public var events: [TraceEvent]
    /// Every expectation checked, in order.
    public var expectations: [ExpectationResult]
    /// The action that stopped the session, if any.
    public var error: Failure?

    /// Creates a report.
    public init(scenario: Scenario, events: [TraceEvent], expectations: [ExpectationResult], error: Failure?) {
        self.scenario = scenario
        self.events = events
        self.expectations = expectations
        self.error = error
    }

    /// The expectations that failed.
    public var failures: [ExpectationResult] { expectations.filter { !$0.passed } }

    /// Every action ran and every expectation held.
    public var passed: Bool { error == nil && failures.isEmpty }

    /// 0 when passed, 1 when an expectation failed, 2 when an action could not run.
    public var exitStatus: Int32 { error != nil ? 2 : failures.isEmpty ? 0 : 1 }
}
