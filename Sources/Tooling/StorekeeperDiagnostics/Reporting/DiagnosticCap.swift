/// A ceiling on how many diagnostics one source lists, so that a catalog of a
/// million products that each break a rule makes a report of a readable
/// size, not hundreds of megabytes: past ``limit`` diagnostics are counted,
/// not kept. The one mechanism behind every 10,000 limit (the YAML layer's
/// per file, the format checks' and the policy rules' per catalog, the
/// suppression comments' per file); each source words its own last
/// diagnostic, saying how many were left out.
///
/// Kept as diagnostics arrive (``append(_:)``), a cap holds no more than its
/// limit however many there are: the first ones are listed. The one kind it
/// keeps besides, taking no room, is another cap's last word (rule
/// ``countingRule``), since that one diagnostic stands for all its source
/// left out: a file's YAML problems, capped in the YAML layer, go on into
/// the cap of the catalog that holds the file, and counted there as one
/// more, the number they gave would be lost. There is one such diagnostic
/// for each source at most, so what a cap holds stays bounded. Given them all at
/// once (``capped(_:limit:rule:source:scope:at:)``), it lists errors before
/// warnings and warnings before notes, so that none of what fails a run is
/// among those left out while a warning is listed.
public struct DiagnosticCap: Sendable {
    /// How many diagnostics are listed for one catalog, or for one file (see
    /// `too-many-problems` in docs/diagnostics.md).
    public static let limit = 10_000

    /// The rule of the diagnostic that counts those a cap left out
    /// (`too-many-problems`), the same for every source.
    public static let countingRule = "too-many-problems"

    /// The most kept.
    public let ceiling: Int
    /// The diagnostics kept, in the order they came.
    public private(set) var kept: [Diagnostic] = []
    /// How many were counted and not kept, by severity.
    private var leftOut: [Severity: Int] = [:]
    /// How many of `kept` count what other caps left out (and take no room).
    private var counts = 0

    /// An empty cap keeping at most `ceiling` diagnostics.
    public init(ceiling: Int = DiagnosticCap.limit) {
        self.ceiling = ceiling
    }

    /// Keeps `diagnostic` while there is room; past it, counts it. One that
    /// counts the problems another cap left out (rule ``countingRule``) is
    /// kept whatever the room, and takes none, so that its number is not lost.
    public mutating func append(_ diagnostic: Diagnostic) {
        if diagnostic.rule == Self.countingRule {
            counts += 1
            kept.append(diagnostic)
        } else if kept.count - counts < ceiling {
            kept.append(diagnostic)
        } else {
            leftOut[diagnostic.severity, default: 0] += 1
        }
    }

    /// Changes each diagnostic kept from position `start` on: what a part of
    /// the work added, given a note once the part is done.
    public mutating func updateKept(from start: Int, _ update: (inout Diagnostic) -> Void) {
        guard start < kept.count else { return }
        for position in max(0, start)..<kept.count { update(&kept[position]) }
    }

    /// Everything `other` kept, through this cap, and everything it left out,
    /// counted: a part decoded with a cap of its own joins the whole without
    /// losing its count.
    public mutating func append(contentsOf other: DiagnosticCap) {
        for diagnostic in other.kept { append(diagnostic) }
        leftOut.merge(other.leftOut, uniquingKeysWith: +)
    }

    /// How many were left out.
    public var leftOutCount: Int { leftOut.values.reduce(0, +) }

    /// The highest severity left out, or nil when none was.
    public var highestLeftOut: Severity? { leftOut.keys.max() }

    /// How many of each severity were left out, highest first: `1 error, 4 warnings`.
    public var leftOutBySeverity: String {
        Severity.allCases.reversed().compactMap { severity in
            leftOut[severity].map { TextReporter.counted($0, severity.rawValue) }
        }.joined(separator: ", ")
    }

    /// `diagnostics` if there are at most `limit`; otherwise the first
    /// `limit` by severity (errors first, then in the order given) and one
    /// diagnostic at `location`, with rule `rule`, counting the rest: `N more
    /// problems (E errors, W warnings) were found by SOURCE and not listed`.
    /// The diagnostic that counts them has the highest severity among them,
    /// so a run fails (or passes) exactly as it would with all of them
    /// listed: an error when an error was left out, a warning (which fails
    /// only under `--strict`) when only warnings were.
    ///
    /// - Parameters:
    ///   - source: What found them, for the message (`the policy rules`).
    ///   - scope: What the limit applies to, for the message (`a catalog`).
    public static func capped(
        _ diagnostics: [Diagnostic], limit: Int = limit, rule: String,
        source: String, scope: String, at location: SourceLocation
    ) -> [Diagnostic] {
        guard diagnostics.count > limit else { return diagnostics }
        var cap = DiagnosticCap(ceiling: limit)
        cap.kept.reserveCapacity(limit)
        for severity in Severity.allCases.reversed() {
            for diagnostic in diagnostics where diagnostic.severity == severity { cap.append(diagnostic) }
        }
        // Over the limit only with other caps' counts, which take no room: nothing was left out.
        guard cap.leftOutCount > 0 else { return cap.kept }
        return cap.kept + [Diagnostic(
            cap.highestLeftOut ?? .note, rule: rule,
            "\(cap.leftOutCount) more problems (\(cap.leftOutBySeverity)) were found by \(source) and not listed (at most \(limit) are listed for \(scope)); fix those listed and run again",
            at: location)]
    }
}
