import StorekeeperCore
public import StorekeeperDiagnostics

/// What a rule is, why it exists, and examples that show it: the examples are
/// both its documentation and its tests.
public struct RuleDescription: Sendable {
    /// The kebab-case id used in output and configuration (`consumable-restore`).
    public let id: String
    /// The severity it reports with unless configured otherwise.
    public let severity: Severity
    /// One line: what it checks.
    public let summary: String
    /// Why, citing the guide by chapter.
    public let rationale: String
    /// Catalogs it reports on, with `↓` before each value it points at.
    public let triggering: [RuleExample]
    /// Catalogs it accepts.
    public let nonTriggering: [RuleExample]

    /// Creates a description.
    public init(
        id: String, severity: Severity, summary: String, rationale: String,
        triggering: [RuleExample], nonTriggering: [RuleExample]
    ) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}
