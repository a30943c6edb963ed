/// One problem found in a catalog: where it is, how serious, which rule found
/// it, what is wrong and what would be right, and the related places.
public struct Diagnostic: Hashable, Sendable {
    /// A related place: the first definition of a duplicate, the include that
    /// pulled a fragment in, the other side of a conflict.
    public struct Note: Hashable, Sendable {
        /// Where the related place is.
        public var location: SourceLocation
        /// What it is, in a short sentence.
        public var message: String

        /// Creates a note.
        public init(_ message: String, at location: SourceLocation) {
            self.location = location
            self.message = message
        }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// The kebab-case id of the rule that found it (`unknown-key`, `duplicate-id`).
    public var rule: String
    /// What is wrong and, where it can be said, what would be right.
    public var message: String
    /// The value the author must change: its start and end.
    public var range: SourceRange
    /// Related places.
    public var notes: [Note]

    /// Where the problem starts.
    public var location: SourceLocation { range.start }

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, rule: String, _ message: String,
        at range: SourceRange, notes: [Note] = []
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.range = range
        self.notes = notes
    }

    /// Creates a diagnostic at a single point.
    public init(
        _ severity: Severity, rule: String, _ message: String,
        at location: SourceLocation, notes: [Note] = []
    ) {
        self.init(severity, rule: rule, message, at: SourceRange(start: location), notes: notes)
    }
}

extension Diagnostic {
    /// Sorts diagnostics into reading order (file, line, column, then rule)
    /// and makes one of those that differ at most in their notes, keeping
    /// every note once: the same problem is found again when one fragment is
    /// included by two catalogs, or one mapping is merged (`<<`) into many
    /// products, each of which may add a note of its own.
    public static func normalized(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        // By the diagnostic without its notes: its position in `unique`.
        var positions: [Diagnostic: Int] = [:]
        // The notes of the diagnostics that more than one copy joined, to add each once.
        var notesSeen: [Int: Set<Note>] = [:]
        var unique: [Diagnostic] = []
        unique.reserveCapacity(diagnostics.count)
        for diagnostic in diagnostics {
            var bare = diagnostic
            bare.notes = []
            guard let position = positions[bare] else {
                positions[bare] = unique.count
                unique.append(diagnostic)
                continue
            }
            guard !diagnostic.notes.isEmpty else { continue }
            var seen = notesSeen[position] ?? Set(unique[position].notes)
            for note in diagnostic.notes where seen.insert(note).inserted {
                unique[position].notes.append(note)
            }
            notesSeen[position] = seen
        }
        return unique.sorted { lhs, rhs in
            if lhs.location != rhs.location { return lhs.location < rhs.location }
            if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
            return lhs.message < rhs.message
        }
    }
}
