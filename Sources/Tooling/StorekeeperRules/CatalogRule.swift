import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// A policy rule: a check of a decoded catalog against what the In-App
/// Purchase guide requires, described well enough to document and test
/// itself.
///
/// A rule is a type with a `description` (its id, rationale and examples) and
/// a `check`. Adding a rule is adding one file with such a type and naming it
/// in `RuleRegistry.all`; the generic tests then run its examples.
public protocol CatalogRule: Sendable {
    /// The id, severity, rationale and examples.
    static var description: RuleDescription { get }

    /// Creates the rule.
    init()

    /// Reports what the catalog does wrong by this rule.
    func check(_ context: RuleContext, into report: inout RuleReport)
}

/// The diagnostics of one rule over one catalog: each gets the rule's id and
/// severity, so a rule only says where and what.
public struct RuleReport: Sendable {
    /// The rule reporting.
    public let rule: RuleDescription
    /// What it found.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Starts a report for a rule.
    public init(rule: RuleDescription) { self.rule = rule }

    /// Reports a problem at a value, with related places.
    public mutating func report<Value>(_ message: String, at value: Located<Value>, notes: [Diagnostic.Note] = []) {
        report(message, at: value.range, notes: notes)
    }

    /// Reports a problem at a range, with related places.
    public mutating func report(_ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(rule.severity, rule: rule.id, message, at: range, notes: notes))
    }

    /// Reports problems worded elsewhere (`PolicyAnalysis.diagnostics(of:)`,
    /// which the compiler reports too), under this rule's id and severity.
    public mutating func report(_ worded: [Diagnostic]) {
        for diagnostic in worded {
            report(diagnostic.message, at: diagnostic.range, notes: diagnostic.notes)
        }
    }
}
