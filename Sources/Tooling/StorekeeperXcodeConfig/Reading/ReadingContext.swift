import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// What reading a StoreKit configuration file found: the problems, and the
/// keys left out of the catalog (reported once per kind of key).
struct ReadingContext {
    var diagnostics: [Diagnostic] = []
    var notImported = NotImportedReport()

    mutating func report(_ severity: Severity, _ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(severity, rule: rule, message, at: range, notes: notes))
    }

    mutating func error(_ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: range, notes: notes)
    }

    /// Everything found, the left-out keys included, at most
    /// `DiagnosticCap.limit` of them (errors first) and a count of the rest,
    /// as every other source of diagnostics is capped.
    func allDiagnostics(file: String) -> [Diagnostic] {
        DiagnosticCap.capped(
            diagnostics + notImported.diagnostics, rule: CatalogRuleID.tooManyProblems,
            source: "reading the .storekit file", scope: "a file", at: SourceLocation(file: file, line: 1, column: 1))
    }
}

/// Keys that the catalog has no place for, collected while reading and then
/// reported one diagnostic per kind of key (`products[].internalID`), at its
/// first place, with a note at every other: a file has dozens of internal ids,
/// and one message that lists them reads better than dozens.
struct NotImportedReport {
    private struct Entry {
        var severity: Severity
        var message: String
        var places: [(path: String, range: SourceRange)]
    }
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// Records that the member at `path` (its key at `range`) is left out, for `reason`.
    mutating func add(path: String, range: SourceRange, reason: String, severity: Severity = .note) {
        let pattern = Self.pattern(of: path)
        let group = "\(severity.rawValue) \(pattern)"
        if entries[group] == nil {
            order.append(group)
            entries[group] = Entry(severity: severity, message: "`\(pattern)` is not imported: \(reason); `export --base` keeps it", places: [])
        }
        entries[group]?.places.append((path, range))
    }

    /// `subscriptionGroups[1].subscriptions[0].internalID` as
    /// `subscriptionGroups[].subscriptions[].internalID`.
    static func pattern(of path: String) -> String {
        var result = ""
        var inIndex = false
        for character in path {
            if character == "[" {
                inIndex = true
                result.append(character)
            } else if character == "]" {
                inIndex = false
                result.append(character)
            } else if !inIndex {
                result.append(character)
            }
        }
        return result
    }

    /// How many places one kind of key notes at most: a file of a hundred
    /// thousand products would otherwise make as many notes.
    static let notesLimit = 100

    /// One diagnostic per kind of key.
    var diagnostics: [Diagnostic] {
        order.compactMap { group in
            guard let entry = entries[group], let first = entry.places.first else { return nil }
            var message = entry.message
            if entry.places.count > Self.notesLimit {
                message += " (\(entry.places.count) places, the first \(Self.notesLimit) noted)"
            } else if entry.places.count > 1 {
                message += " (\(entry.places.count) places, each noted)"
            }
            let notes = entry.places.prefix(Self.notesLimit).map { Diagnostic.Note("`\($0.path)`", at: $0.range.start) }
            return Diagnostic(entry.severity, rule: StoreKitRuleID.notImported, message, at: first.range, notes: entry.places.count > 1 ? notes : [])
        }
    }
}
