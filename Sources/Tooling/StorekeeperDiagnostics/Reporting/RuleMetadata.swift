/// What a rule is, for output formats that list the rules they report on
/// (SARIF's `tool.driver.rules`), apart from any one diagnostic it produced.
///
/// ```swift
/// let rule = RuleMetadata(
///     id: "consumable-restore",
///     summary: "Consumables must not be offered for restore.",
///     help: "Consumable products are used up; the App Store does not restore them, ...",
///     defaultSeverity: .error)
/// ```
public struct RuleMetadata: Sendable, Hashable {
    /// The kebab-case id that diagnostics carry in ``Diagnostic/rule`` (`consumable-restore`).
    public var id: String
    /// What the rule checks, in one line.
    public var summary: String
    /// Why the rule exists and how to satisfy it: the longer rationale, in plain
    /// text (not Markdown); it may span several paragraphs.
    public var help: String
    /// The severity the rule reports with unless configuration changes it.
    public var defaultSeverity: Severity

    /// Creates a rule's description.
    ///
    /// - Parameters:
    ///   - id: The id that the rule's diagnostics carry.
    ///   - summary: What the rule checks, in one line.
    ///   - help: The longer rationale, in plain text.
    ///   - defaultSeverity: The severity the rule reports with by default.
    public init(id: String, summary: String, help: String, defaultSeverity: Severity) {
        self.id = id
        self.summary = summary
        self.help = help
        self.defaultSeverity = defaultSeverity
    }
}
