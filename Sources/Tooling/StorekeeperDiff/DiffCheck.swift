import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// One thing a catalog change can do to people who already bought: its id,
/// severity, why it matters, examples, and the comparison that finds it.
///
/// The examples are the check's documentation (docs/diff.md shows them) and
/// its tests (each triggering pair must be reported exactly at its `↓`
/// markers, each non-triggering pair not at all).
public struct DiffCheck: Sendable {
    /// The kebab-case id diagnostics carry (`diff-product-removed`).
    public let id: String
    /// The severity it reports with.
    public let severity: Severity
    /// One line: what it finds.
    public let summary: String
    /// What happens to existing users and what to do instead, citing the guide
    /// or Apple's documentation.
    public let rationale: String
    /// Old and new catalogs it reports on, `↓` before each place it points at.
    public let triggering: [DiffExample]
    /// Old and new catalogs it accepts.
    public let nonTriggering: [DiffExample]
    /// The comparison.
    let compare: @Sendable (DiffContext, inout DiffReport) -> Void

    /// Creates a check.
    public init(
        id: String, severity: Severity, summary: String, rationale: String,
        triggering: [DiffExample], nonTriggering: [DiffExample],
        compare: @escaping @Sendable (DiffContext, inout DiffReport) -> Void
    ) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.triggering = triggering
        self.nonTriggering = nonTriggering
        self.compare = compare
    }

    /// What this check finds between two catalogs.
    public func check(_ context: DiffContext) -> [Diagnostic] {
        var report = DiffReport(check: self)
        compare(context, &report)
        return report.diagnostics
    }

    /// The check described for formats that list their rules (SARIF).
    public var metadata: RuleMetadata {
        RuleMetadata(id: id, summary: summary, help: rationale + " See docs/diff.md#\(id).", defaultSeverity: severity)
    }
}

/// The diagnostics of one check over one pair of catalogs: each gets the
/// check's id and severity, so a check says only where and what.
public struct DiffReport: Sendable {
    /// The check's id.
    public let id: String
    /// The check's severity.
    public let severity: Severity
    /// What it found.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Starts a report for a check.
    public init(check: DiffCheck) {
        id = check.id
        severity = check.severity
    }

    /// Reports a finding at a value, with related places.
    public mutating func report<Value>(_ message: String, at value: Located<Value>, notes: [Diagnostic.Note] = []) {
        report(message, at: value.range, notes: notes)
    }

    /// Reports a finding at a range, with related places.
    public mutating func report(_ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(severity, rule: id, message, at: range, notes: notes))
    }
}
