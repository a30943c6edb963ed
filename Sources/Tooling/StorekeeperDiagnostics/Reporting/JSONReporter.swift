import StorekeeperCore
public import StorekeeperJSON
/// Renders a ``ValidationReport`` as one JSON document, for tools.
///
/// The document's shape, with members always present and always in this
/// order:
///
/// ```json
/// {
///   "version": 1,
///   "diagnostics": [
///     {
///       "file": "Catalogs/game.yaml",
///       "line": 12,
///       "column": 5,
///       "endLine": 12,
///       "endColumn": 9,
///       "severity": "error",
///       "rule": "unknown-key",
///       "message": "unknown key 'pric' in a product; did you mean 'price'?",
///       "notes": [
///         {
///           "file": "Catalogs/game.yaml",
///           "line": 3,
///           "column": 9,
///           "message": "the first definition is here"
///         }
///       ]
///     }
///   ],
///   "summary": {
///     "files": 1,
///     "errors": 1,
///     "warnings": 0,
///     "notes": 0
///   }
/// }
/// ```
///
/// Lines and columns are 1-based; columns count Unicode scalars. `endLine`
/// and `endColumn` are the position just after the flagged text (equal to
/// `line` and `column` for a point). `severity` is `error`, `warning` or
/// `note`. `notes` is `[]` when there are none. In `summary`, `notes` counts
/// diagnostics whose severity is `note`, not the notes attached to others.
/// The output ends with a newline. See ``JSONWriter`` for string escaping.
public struct JSONReporter: Sendable {
    /// The value of the document's `version` member; raised on incompatible changes.
    public static let formatVersion = 1

    /// The serializer: pretty-printed with two spaces by default.
    public var writer: JSONWriter

    /// Creates a reporter.
    ///
    /// - Parameter writer: The serializer; pass `JSONWriter(indentation: nil)`
    ///   for one line.
    public init(writer: JSONWriter = JSONWriter()) {
        self.writer = writer
    }

    /// The JSON text of `report`, ending with a newline.
    public func render(_ report: ValidationReport) -> String {
        var output = ""
        writer.write(Self.document(for: report), to: &output)
        output += "\n"
        return output
    }

    /// The document for `report`, for embedding it in a larger one.
    public static func document(for report: ValidationReport) -> JSONValue {
        [
            "version": .integer(formatVersion),
            "diagnostics": .array(report.diagnostics.map(value(for:))),
            "summary": [
                "files": .integer(report.filesChecked),
                "errors": .integer(report.errorCount),
                "warnings": .integer(report.warningCount),
                "notes": .integer(report.noteCount),
            ],
        ]
    }

    /// The object for one diagnostic.
    public static func value(for diagnostic: Diagnostic) -> JSONValue {
        let start = diagnostic.range.start
        let end = diagnostic.range.end
        return [
            "file": .string(start.file),
            "line": .integer(start.line),
            "column": .integer(start.column),
            "endLine": .integer(end.line),
            "endColumn": .integer(end.column),
            "severity": .string(diagnostic.severity.rawValue),
            "rule": .string(diagnostic.rule),
            "message": .string(diagnostic.message),
            "notes": .array(diagnostic.notes.map { note in
                [
                    "file": .string(note.location.file),
                    "line": .integer(note.location.line),
                    "column": .integer(note.location.column),
                    "message": .string(note.message),
                ]
            }),
        ]
    }
}
