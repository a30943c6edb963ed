import StorekeeperCore
public import StorekeeperDiagnostics

/// Where each line of an imported catalog came from in the StoreKit
/// configuration file, so that a problem the catalog loader or the policy
/// rules find in the catalog is reported where the author can fix it.
public struct SourceMap: Sendable {
    /// Where a line came from.
    struct Origin: Sendable {
        /// The key or value in the StoreKit configuration file.
        var range: SourceRange
        /// The catalog key the line writes, for messages.
        var catalogKey: String?
    }

    /// The catalog file the lines belong to.
    public var catalogPath: String
    /// Origins by 1-based line (nil: a comment, or a line of the catalog's own).
    var origins: [Origin?] = []
    /// Where the file itself is, for lines with no origin.
    var fileStart: SourceRange

    /// The origin of a line, or of the nearest line above that has one.
    func origin(ofLine line: Int) -> Origin? {
        var index = min(line, origins.count) - 1
        while index >= 0 {
            if let origin = origins[index] { return origin }
            index -= 1
        }
        return nil
    }

    /// A diagnostic located in the catalog, moved to the StoreKit
    /// configuration file (with its notes); others are returned unchanged.
    public func translate(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.location.file == catalogPath else { return diagnostic }
        let found = origin(ofLine: diagnostic.location.line)
        var message = diagnostic.message
        if let key = found?.catalogKey { message += " (imported as the catalog's `\(key)`)" }
        let notes = diagnostic.notes.map { note -> Diagnostic.Note in
            guard note.location.file == catalogPath else { return note }
            return Diagnostic.Note(note.message, at: (origin(ofLine: note.location.line)?.range ?? fileStart).start)
        }
        return Diagnostic(diagnostic.severity, rule: diagnostic.rule, message, at: found?.range ?? fileStart, notes: notes)
    }
}

/// The text of an imported catalog, line by line, each with its origin.
struct CatalogText {
    private(set) var lines: [String] = []
    private(set) var map: SourceMap

    init(catalogPath: String, fileStart: SourceRange) {
        map = SourceMap(catalogPath: catalogPath, fileStart: fileStart)
    }

    /// Adds a line at `indentation` spaces, with an optional trailing comment.
    mutating func add(_ indentation: Int, _ text: String, from origin: SourceRange?, key: String? = nil, comment: String? = nil) {
        var line = String(repeating: " ", count: indentation) + text
        if let comment { line += "  # " + comment }
        lines.append(line)
        map.origins.append(origin.map { SourceMap.Origin(range: $0, catalogKey: key) })
    }

    /// Adds comment lines (`# ...`), wrapped to 80 columns.
    mutating func comment(_ text: String, indentation: Int = 0, hanging: Int = 0) {
        let prefix = String(repeating: " ", count: indentation) + "# "
        var line = prefix
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count + word.count > 80, line.count > prefix.count + hanging {
                lines.append(String(line.dropLast()))
                map.origins.append(nil)
                line = prefix + String(repeating: " ", count: hanging)
            }
            line += word + " "
        }
        lines.append(String(line.dropLast()))
        map.origins.append(nil)
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}
