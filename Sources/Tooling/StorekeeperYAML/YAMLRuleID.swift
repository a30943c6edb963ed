import StorekeeperDiagnostics

/// The ids of the diagnostics the YAML layer itself reports.
public enum YAMLRuleID {
    /// The text is not valid YAML (or not valid UTF-8).
    public static let syntax = "yaml-syntax"
    /// A file, nesting depth or alias expansion exceeded its limit.
    public static let limit = "yaml-limit"
    /// A key appears twice in one mapping.
    public static let duplicateKey = "duplicate-key"
    /// A key is a list or a mapping, or an alias to one.
    public static let complexKey = "complex-key"
    /// An alias names an anchor that was never defined, or its own container.
    public static let alias = "yaml-alias"
    /// A merge key (`<<`) whose value is not a mapping or a list of mappings.
    public static let mergeKey = "merge-key"
    /// More problems than are listed for one file.
    public static let tooManyProblems = DiagnosticCap.countingRule
    /// The file holds no document, or more than one.
    public static let documentCount = "document-count"
}
