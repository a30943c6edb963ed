package import StorekeeperDiagnostics

/// Diagnostics with a ceiling: a hostile file (a million duplicate names)
/// must not make a million diagnostics. Past the ceiling they are counted,
/// not kept (``DiagnosticCap`` does the counting); errors are counted
/// either way, so nothing is taken for valid because it went unsaid.
package struct DiagnosticList {
    private var cap: DiagnosticCap
    /// Errors reported, kept or not.
    package private(set) var errorCount = 0

    /// An empty list keeping at most `limit` diagnostics.
    package init(limit: Int) {
        cap = DiagnosticCap(ceiling: limit)
    }

    /// The most diagnostics kept.
    package var limit: Int { cap.ceiling }
    /// The diagnostics kept, in the order reported.
    package var all: [Diagnostic] { cap.kept }
    /// How many are kept.
    package var count: Int { cap.kept.count }
    /// How many were left out, past the ceiling.
    package var leftOutCount: Int { cap.leftOutCount }
    /// The highest severity left out, or nil when none was.
    package var highestLeftOut: Severity? { cap.highestLeftOut }
    /// How many of each severity were left out, highest first: `1 error, 4 warnings`.
    package var leftOutBySeverity: String { cap.leftOutBySeverity }

    /// Keeps a diagnostic while there is room; counts it either way.
    package mutating func append(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error { errorCount += 1 }
        cap.append(diagnostic)
    }

    /// Keeps each of `diagnostics` (the YAML layer's, say) as ``append(_:)`` does.
    package mutating func append(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    /// Everything `other` reported (a part decoded with a list of its own,
    /// such as a catalog file's streamed products), those it left out still counted.
    package mutating func append(contentsOf other: DiagnosticList) {
        errorCount += other.errorCount
        cap.append(contentsOf: other.cap)
    }

    /// Changes each diagnostic kept from position `start` (a ``count`` taken
    /// earlier) on: what a part of the work added, given a note once the part is done.
    package mutating func update(from start: Int, _ change: (inout Diagnostic) -> Void) {
        cap.updateKept(from: start, change)
    }
}
