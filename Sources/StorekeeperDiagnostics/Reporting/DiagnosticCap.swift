/// A ceiling on how many diagnostics one source lists, so that a catalog of a
/// million products that each break a rule makes a report of a readable
/// size, not hundreds of megabytes: past ``limit`` diagnostics are counted,
/// not kept, and one more says how many were left out and of which
/// severities.
///
/// Errors are kept before warnings, and warnings before notes, so that none
/// of what fails a run is among those left out while a warning is listed.
/// The diagnostic that counts the rest has the highest severity among them,
/// so a run fails (or passes) exactly as it would with all of them listed:
/// an error when an error was left out, a warning (which fails only under
/// `--strict`) when only warnings were.
public enum DiagnosticCap {
    /// How many diagnostics are listed for one catalog, as the format's own
    /// checks list (see `too-many-problems` in docs/diagnostics.md).
    public static let limit = 10_000

    /// `diagnostics` if there are at most `limit`; otherwise the first
    /// `limit` by severity (errors first, then in the order given) and one
    /// diagnostic at `location`, with rule `rule`, counting the rest: `N more
    /// problems (E errors, W warnings) were found by SOURCE and not listed`.
    ///
    /// - Parameters:
    ///   - source: What found them, for the message (`the policy rules`).
    ///   - scope: What the limit applies to, for the message (`a catalog`).
    public static func capped(
        _ diagnostics: [Diagnostic], limit: Int = limit, rule: String,
        source: String, scope: String, at location: SourceLocation
    ) -> [Diagnostic] {
        guard diagnostics.count > limit else { return diagnostics }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(limit)
        var leftOut: [Severity: Int] = [:]
        for severity in Severity.allCases.reversed() {
            for diagnostic in diagnostics where diagnostic.severity == severity {
                if kept.count < limit {
                    kept.append(diagnostic)
                } else {
                    leftOut[severity, default: 0] += 1
                }
            }
        }
        let total = leftOut.values.reduce(0, +)
        let counts = Severity.allCases.reversed().compactMap { severity in
            leftOut[severity].map { TextReporter.counted($0, severity.rawValue) }
        }
        let highest = leftOut.keys.max() ?? .note
        kept.append(Diagnostic(
            highest, rule: rule,
            "\(total) more problems (\(counts.joined(separator: ", "))) were found by \(source) and not listed (at most \(limit) are listed for \(scope)); fix those listed and run again",
            at: location))
        return kept
    }
}
