/// The outcome of validating one or more files: what was checked and what was found.
public struct ValidationReport: Sendable, Hashable {
    /// Every diagnostic, in reading order with exact repeats removed.
    public var diagnostics: [Diagnostic]
    /// How many files were read (catalogs and the fragments they include).
    public var filesChecked: Int

    /// Creates a report; diagnostics are normalized (sorted, deduplicated).
    public init(diagnostics: [Diagnostic], filesChecked: Int) {
        self.diagnostics = Diagnostic.normalized(diagnostics)
        self.filesChecked = filesChecked
    }

    /// The number of diagnostics with severity `error`.
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    /// The number of diagnostics with severity `warning`.
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    /// The number of diagnostics with severity `note`.
    public var noteCount: Int { diagnostics.count { $0.severity == .note } }

    /// Whether the run failed: any error, or under `strict` any warning.
    public func fails(strict: Bool = false) -> Bool {
        errorCount > 0 || (strict && warningCount > 0)
    }
}
