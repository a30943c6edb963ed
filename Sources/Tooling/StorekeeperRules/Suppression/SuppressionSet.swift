import StorekeeperCore
public import StorekeeperDiagnostics

/// The suppressions of a run, looked up by file and line, remembering which
/// of their rule ids hid something so that the rest can be reported unused.
public struct SuppressionSet: Sendable {
    private struct Key: Hashable {
        let file: UInt32
        let line: Int
    }

    private let suppressions: [Suppression]
    /// Indices into `suppressions`, by the file and line they apply to.
    private let index: [Key: [Int]]
    /// Files with any suppression: diagnostics elsewhere skip the lookup.
    private let files: Set<UInt32>
    /// For each suppression, whether each of its rules hid something.
    private var used: [[Bool]]

    /// A set of suppressions (from any number of files).
    public init(_ suppressions: [Suppression]) {
        self.suppressions = suppressions
        var index: [Key: [Int]] = [:]
        var files = Set<UInt32>()
        for (position, suppression) in suppressions.enumerated() {
            let file = SourceFileTable.id(for: suppression.file)
            files.insert(file)
            index[Key(file: file, line: suppression.targetLine), default: []].append(position)
        }
        self.index = index
        self.files = files
        used = suppressions.map { [Bool](repeating: false, count: $0.rules.count) }
    }

    /// Whether a suppression hides the diagnostic (and remembers that it was
    /// used): one on the line the diagnostic starts on names its rule.
    public mutating func suppresses(_ diagnostic: Diagnostic) -> Bool {
        let file = diagnostic.range.fileID
        guard files.contains(file), let candidates = index[Key(file: file, line: diagnostic.location.line)] else { return false }
        var hidden = false
        for position in candidates {
            for (rule, named) in suppressions[position].rules.enumerated() where named.id == diagnostic.rule {
                used[position][rule] = true
                hidden = true
            }
        }
        return hidden
    }

    /// `unused-suppression` warnings for every rule id that hid nothing.
    public func unused() -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for (position, suppression) in suppressions.enumerated() {
            for (rule, named) in suppression.rules.enumerated() where !used[position][rule] {
                let fix = suppression.rules.count == 1 ? "remove the comment" : "remove '\(named.id)' from the comment"
                warnings.append(Diagnostic(
                    .warning, rule: SuppressionRuleID.unused,
                    "the suppression of '\(named.id)' hides nothing: no '\(named.id)' problem starts on line \(suppression.targetLine); \(fix)",
                    at: named.range))
            }
        }
        return warnings
    }
}
