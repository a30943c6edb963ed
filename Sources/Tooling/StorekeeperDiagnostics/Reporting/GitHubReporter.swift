/// Renders a ``ValidationReport`` as GitHub Actions workflow commands, which
/// the runner turns into annotations on the pull request and the run summary.
///
/// ## Format
///
/// One line per diagnostic, then the summary line of
/// ``TextReporter/summary(for:)``; every line ends with `\n`:
///
/// ```
/// ::error file=Catalogs/game.yaml,line=4,col=9,endLine=4,endColumn=26,title=duplicate-id::duplicate product id 'com.example.coins'%0Anote: Catalogs/game.yaml:2:9: the first definition is here
/// ::warning file=Catalogs/other.yaml,line=1,col=1,endLine=1,endColumn=1,title=empty-title::'title' is empty
/// 1 error, 1 warning in 2 files
/// ```
///
/// - The command is `error`, `warning` or `notice` (for `note`).
/// - Properties come in the order `file`, `line`, `col`, `endLine`,
///   `endColumn`, `title` (the rule id). `file` is left out when the
///   diagnostic has no file, the positions when its line is below 1 (no line
///   known), `col` and `endColumn` when the range spans several lines (GitHub
///   accepts columns only on a single line), and `title` when the rule is
///   empty. Columns below 1 are raised to 1, an end before the start is moved
///   to the start.
/// - The message is the diagnostic's, followed by one line per note:
///   `note: file:line:column: text` (`note: text` for a note without a file).
/// - Escaping is that of `@actions/toolkit` (`escapeData` and
///   `escapeProperty` in `packages/core/src/command.ts`): in the message `%`,
///   carriage return and line feed become `%25`, `%0D` and `%0A`; in property
///   values `:` and `,` also become `%3A` and `%2C`. A message therefore never
///   spans lines, so it cannot forge further commands.
public struct GitHubReporter: Sendable {
    /// Creates a reporter.
    public init() {}

    /// Renders one command per diagnostic of `report`, in order, then the summary line.
    public func render(_ report: ValidationReport) -> String {
        var output = ""
        for diagnostic in report.diagnostics {
            output += Self.command(for: diagnostic)
            output += "\n"
        }
        output += TextReporter.summary(for: report)
        output += "\n"
        return output
    }

    /// The workflow command for one diagnostic, without a line break.
    public static func command(for diagnostic: Diagnostic) -> String {
        var properties: [(name: String, value: String)] = []
        let start = diagnostic.range.start
        let end = diagnostic.range.end
        if !start.file.isEmpty {
            properties.append(("file", start.file))
            if start.line >= 1 {
                let endLine = max(start.line, end.line)
                properties.append(("line", String(start.line)))
                if endLine == start.line {
                    let column = max(1, start.column)
                    properties.append(("col", String(column)))
                    properties.append(("endLine", String(endLine)))
                    properties.append(("endColumn", String(max(column, end.column))))
                } else {
                    properties.append(("endLine", String(endLine)))
                }
            }
        }
        if !diagnostic.rule.isEmpty {
            properties.append(("title", diagnostic.rule))
        }

        var message = diagnostic.message
        for note in diagnostic.notes {
            message += note.location.file.isEmpty
                ? "\nnote: \(note.message)" : "\nnote: \(note.location): \(note.message)"
        }

        var command = "::" + name(for: diagnostic.severity)
        if !properties.isEmpty {
            command += " "
            command += properties.map { "\($0.name)=\(escapeProperty($0.value))" }.joined(separator: ",")
        }
        command += "::" + escapeData(message)
        return command
    }

    /// A command's message with `%`, CR and LF escaped, as `@actions/toolkit`'s `escapeData` does.
    public static func escapeData(_ text: String) -> String {
        escaped(text, alsoSeparators: false)
    }

    /// A property value with `%`, CR, LF, `:` and `,` escaped, as
    /// `@actions/toolkit`'s `escapeProperty` does.
    public static func escapeProperty(_ text: String) -> String {
        escaped(text, alsoSeparators: true)
    }

    // Scalar by scalar: "\r\n" is one Character, and both of its halves must be escaped.
    private static func escaped(_ text: String, alsoSeparators: Bool) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output.append(contentsOf: "%25".unicodeScalars)
            case "\r": output.append(contentsOf: "%0D".unicodeScalars)
            case "\n": output.append(contentsOf: "%0A".unicodeScalars)
            case ":" where alsoSeparators: output.append(contentsOf: "%3A".unicodeScalars)
            case "," where alsoSeparators: output.append(contentsOf: "%2C".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    private static func name(for severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }
}
