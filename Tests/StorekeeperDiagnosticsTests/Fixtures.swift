import StorekeeperCore
import StorekeeperDiagnostics

/// A small catalog with two errors (one with a note) and a warning in a file
/// whose text is not available.
enum Fixture {
    static let gameFile = "Catalogs/game.yaml"
    static let otherFile = "Catalogs/other.yaml"

    static let gameText = """
        products:
          - id: com.example.coins
            price: "0.99"
          - id: com.example.coins
            pric: "0.99"
        """

    static func at(_ file: String, _ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    static func at(_ line: Int, _ column: Int) -> SourceLocation {
        at(gameFile, line, column)
    }

    static func range(_ line: Int, _ column: Int, to endColumn: Int, in file: String = gameFile)
        -> SourceRange
    {
        SourceRange(start: at(file, line, column), end: at(file, line, endColumn))
    }

    static let unknownKey = Diagnostic(
        .error, rule: "unknown-key",
        "unknown key 'pric' in a product; did you mean 'price'?",
        at: range(5, 5, to: 9))

    static let duplicateID = Diagnostic(
        .error, rule: "duplicate-id", "duplicate product id 'com.example.coins'",
        at: range(4, 9, to: 26),
        notes: [Diagnostic.Note("the first definition is here", at: at(2, 9))])

    static let emptyTitle = Diagnostic(
        .warning, rule: "empty-title", "'title' is empty", at: at(otherFile, 1, 1))

    static let report = ValidationReport(
        diagnostics: [unknownKey, emptyTitle, duplicateID], filesChecked: 3)

    static let sources = TextReporter.sourceLines(from: [gameFile: gameText])

    /// A reporter whose only source line is `text`, as line 1 of `file.yaml`.
    static func reporter(line text: String, colors: Bool = false) -> TextReporter {
        TextReporter(colors: colors) { file, line in
            file == "file.yaml" && line == 1 ? text : nil
        }
    }

    /// An error in `file.yaml` on line 1 from `column` to `endColumn`.
    static func error(_ column: Int, to endColumn: Int) -> Diagnostic {
        Diagnostic(.error, rule: "r", "m", at: range(1, column, to: endColumn, in: "file.yaml"))
    }
}
