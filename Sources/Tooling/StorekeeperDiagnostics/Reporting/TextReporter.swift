/// Renders a ``ValidationReport`` as text for people, in the style of clang and
/// swiftc.
///
/// ## Format
///
/// Each diagnostic is a header line, then (when the source line is available)
/// an excerpt of two lines, then the same for each of its notes:
///
/// ```
/// Catalogs/game.yaml:12:5: error: unknown key 'pric' in a product; did you mean 'price'? [unknown-key]
///    12 |     pric: "0.99"
///       |     ^~~~
/// Catalogs/game.yaml:3:9: note: the first definition is here
///     3 |   - id: com.example.coins
///       |         ^
/// 2 errors, 1 warning in 3 files
/// ```
///
/// - The header is `file:line:column: severity: message [rule]`; notes have no
///   rule, and an empty rule is left out.
/// - The excerpt's gutter is the line number right-aligned in five columns
///   (wider for longer numbers), then ` | `. The source line is printed as
///   given, without a trailing `\r` or `\n`.
/// - The caret line puts `^` under the start column and `~` under the rest of
///   the range: to the range's end column when it ends on the same line, to
///   the end of the line when it ends on a later line. There is always one `^`.
///   The header's columns count Unicode scalars; the marker counts the
///   columns a terminal draws (``DisplayWidth``): each character before the
///   start becomes as many spaces as it is wide (two for CJK and other wide
///   characters, none for combining marks), except tabs, which are kept so
///   the caret lines up with the tab stops of the line above, and the `~`s
///   cover the width of the characters in the range.
/// - When the source line is unavailable (the provider returns `nil`), only the
///   header is printed.
/// - Control characters from files and messages (everything in the C0 and C1
///   ranges and DEL, except tab, and the bidirectional controls) are shown as
///   Unicode control pictures (`␛`, `␊`) or `�`, so a hostile file can neither
///   send escape sequences to the terminal, nor forge extra diagnostic lines,
///   nor reorder what a line shows. Each stays one scalar wide, so
///   carets still line up.
/// - The last line is the summary from ``summary(for:)``.
/// - Every line, the last included, ends with `\n`.
///
/// With ``colors`` on, ANSI escapes mark the location and message bold,
/// `error:` bold red, `warning:` bold magenta, `note:` bold cyan and the caret
/// line bold green; with it off, the output has no escape codes at all.
public struct TextReporter: Sendable {
    /// Returns the text of line `line` (1-based) of `file`, or `nil` when it is
    /// unavailable. A trailing `\r` (from `\r\n` line endings) or `\n` is ignored.
    public typealias SourceLineProvider = @Sendable (_ file: String, _ line: Int) -> String?

    /// Whether to emit ANSI colour and bold escapes.
    public var colors: Bool
    /// Where excerpts come from.
    public var sourceLine: SourceLineProvider

    /// Creates a reporter.
    ///
    /// - Parameters:
    ///   - colors: Whether to emit ANSI escapes; see ``shouldUseColor(isTerminal:environment:)``.
    ///   - sourceLine: Supplies source lines for excerpts; the default supplies
    ///     none, so only header lines are printed.
    public init(colors: Bool = false, sourceLine: @escaping SourceLineProvider = { _, _ in nil }) {
        self.colors = colors
        self.sourceLine = sourceLine
    }

    /// Whether to colour output by default, following <https://no-color.org>:
    /// only when the output is a terminal, `NO_COLOR` is absent or empty, and
    /// `TERM` is not `dumb`.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether standard output is a terminal (`isatty(1)`).
    ///   - environment: The process environment.
    public static func shouldUseColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return true
    }

    /// Renders every diagnostic of `report` in order, then the summary line.
    public func render(_ report: ValidationReport) -> String {
        var output = ""
        write(report, chunkSize: .max) { output += $0 }
        return output
    }

    /// The text `render` returns for `report`, handed to `output` in
    /// pieces of about `chunkSize` bytes as it is made: a report of many
    /// diagnostics is never held whole, so printing it takes memory for
    /// one piece, not for the report (a text ten times the size of its
    /// JSON, for excerpts and carets).
    public func write(_ report: ValidationReport, chunkSize: Int = 1 << 16, to output: (String) -> Void) {
        var pending = ""
        for diagnostic in report.diagnostics {
            append(diagnostic, to: &pending)
            if pending.utf8.count >= chunkSize {
                output(pending)
                pending = ""
            }
        }
        pending += Self.summary(for: report)
        pending += "\n"
        output(pending)
    }

    /// Renders one diagnostic and its notes, without a summary.
    public func render(_ diagnostic: Diagnostic) -> String {
        var output = ""
        append(diagnostic, to: &output)
        return output
    }

    /// The one-line summary of a report, without a line break.
    ///
    /// It lists the number of error, warning and note diagnostics, in that
    /// order, leaving out those that are zero, followed by `in N files`:
    /// `2 errors, 1 warning in 3 files`, `1 warning in 1 file`,
    /// `1 error, 2 notes in 2 files`. When there are none of any it reads
    /// `no problems in 3 files`. Only diagnostics whose severity is `note` are
    /// counted as notes; the notes attached to a diagnostic are not.
    public static func summary(for report: ValidationReport) -> String {
        var parts: [String] = []
        if report.errorCount > 0 { parts.append(counted(report.errorCount, "error")) }
        if report.warningCount > 0 { parts.append(counted(report.warningCount, "warning")) }
        if report.noteCount > 0 { parts.append(counted(report.noteCount, "note")) }
        let found = parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
        return "\(found) in \(counted(report.filesChecked, "file"))"
    }

    /// `1 file`, `0 files`, `2 files`.
    static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    // MARK: - Rendering

    private func append(_ diagnostic: Diagnostic, to output: inout String) {
        let message = diagnostic.rule.isEmpty
            ? diagnostic.message : "\(diagnostic.message) [\(diagnostic.rule)]"
        appendHeader(diagnostic.location, diagnostic.severity, message, to: &output)
        appendExcerpt(diagnostic.range, to: &output)
        for note in diagnostic.notes {
            appendHeader(note.location, .note, note.message, to: &output)
            appendExcerpt(SourceRange(start: note.location), to: &output)
        }
    }

    private func appendHeader(
        _ location: SourceLocation, _ severity: Severity, _ message: String,
        to output: inout String
    ) {
        let place = "\(Self.sanitized(location.file)):\(location.line):\(location.column):"
        let label = "\(severity.rawValue):"
        let text = Self.sanitized(message)
        if colors {
            output += ANSI.bold + place + ANSI.reset + " "
            output += Self.color(for: severity) + label + ANSI.reset + " "
            output += ANSI.bold + text + ANSI.reset + "\n"
        } else {
            output += "\(place) \(label) \(text)\n"
        }
    }

    private static func color(for severity: Severity) -> String {
        switch severity {
        case .error: ANSI.boldRed
        case .warning: ANSI.boldMagenta
        case .note: ANSI.boldCyan
        }
    }

    /// The longest source line quoted whole; a longer one (minified YAML, a
    /// line of 100,000 brackets) is cut to a window around the column.
    static let maximumExcerptWidth = 160

    private func appendExcerpt(_ range: SourceRange, to output: inout String) {
        let start = range.start
        guard start.line >= 1, let raw = sourceLine(start.file, start.line) else { return }
        var scalars = Self.withoutLineTerminator(raw)
        var range = range
        if scalars.count > Self.maximumExcerptWidth {
            (scalars, range) = Self.window(scalars, around: range)
        }

        let number = String(start.line)
        let width = max(5, number.count)
        output += String(repeating: " ", count: width - number.count) + number + " |"
        if !scalars.isEmpty {
            output += " "
            // Built apart and appended once: appending to `output.unicodeScalars`
            // copies the whole output each time, quadratic over a long report.
            var line = String.UnicodeScalarView()
            line.append(contentsOf: scalars.lazy.map(Self.sanitized))
            output += String(line)
        }
        output += "\n"

        let marker = Self.marker(for: range, in: scalars)
        output += String(repeating: " ", count: width) + " | " + marker.padding
        output += colors ? ANSI.boldGreen + marker.caret + ANSI.reset : marker.caret
        output += "\n"
    }

    /// A window of a long line around the range's start, with `…` where it
    /// was cut, and the range moved to match.
    static func window(_ scalars: [Unicode.Scalar], around range: SourceRange) -> ([Unicode.Scalar], SourceRange) {
        let half = maximumExcerptWidth / 2
        let column = min(max(range.start.column, 1), scalars.count + 1)
        let low = max(0, min(column - 1 - half, scalars.count - maximumExcerptWidth))
        let high = min(scalars.count, low + maximumExcerptWidth)
        var window: [Unicode.Scalar] = low > 0 ? ["…"] : []
        window.append(contentsOf: scalars[low..<high])
        if high < scalars.count { window.append("…") }
        let shift = low - (low > 0 ? 1 : 0)
        var moved = range
        moved.start.column -= shift
        if range.end.line == range.start.line {
            moved.end.column = min(range.end.column - shift, window.count + 1)
        }
        return (window, moved)
    }

    /// The padding before the caret and the caret itself (`^~~~`) for `range`
    /// on the source line `scalars`, measured in the columns the line takes
    /// on a terminal as printed (its controls made visible).
    static func marker(
        for range: SourceRange, in scalars: [Unicode.Scalar]
    ) -> (padding: String, caret: String) {
        let lineEnd = scalars.count + 1
        let column = min(max(range.start.column, 1), lineEnd)
        // Runs of spaces, made whole: a report quotes thousands of lines.
        var padding = ""
        var spaces = 0
        for scalar in scalars.prefix(column - 1) {
            if scalar == "\t" {
                padding += String(repeating: " ", count: spaces) + "\t"
                spaces = 0
            } else {
                spaces += DisplayWidth.of(sanitized(scalar))
            }
        }
        padding += String(repeating: " ", count: spaces)
        let end: Int
        if range.end.file == range.start.file, range.end.line == range.start.line {
            end = min(range.end.column, lineEnd)
        } else if range.end.file == range.start.file, range.end.line > range.start.line {
            end = lineEnd
        } else {
            end = column + 1
        }
        var width = 0
        if end > column {
            for scalar in scalars[(column - 1)..<(end - 1)] { width += DisplayWidth.of(sanitized(scalar)) }
        }
        let length = max(1, width)
        return (padding, "^" + String(repeating: "~", count: length - 1))
    }

    /// The scalars of `line` without one trailing `\n` and then one trailing `\r`.
    static func withoutLineTerminator(_ line: String) -> [Unicode.Scalar] {
        var scalars = Array(line.unicodeScalars)
        if scalars.last == "\n" { scalars.removeLast() }
        if scalars.last == "\r" { scalars.removeLast() }
        return scalars
    }

    /// `text` with control characters other than tab made visible; see the
    /// type's documentation.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.unicodeScalars.lazy.map(sanitized))
        return String(result)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidirectionalControl(scalar))
    }

    /// Controls that reorder how a terminal shows the rest of the line
    /// ("Trojan Source"): a source line holding one would not show what it holds.
    private static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    private static func sanitized(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard isUnsafe(scalar) else { return scalar }
        let picture: UInt32 =
            switch scalar.value {
            case 0..<0x20: 0x2400 + scalar.value  // ␀ … ␟
            case 0x7F: 0x2421  // ␡
            default: 0xFFFD  // C1 and bidirectional controls: �
            }
        return Unicode.Scalar(picture) ?? "\u{FFFD}"
    }
}

extension TextReporter {
    /// A source-line provider over file contents already in memory.
    ///
    /// Each file is split into lines once, at `\n`; a `\r` before it is
    /// dropped, so `\r\n` files work. Files not in `contents`, and lines past
    /// the end, give `nil`.
    ///
    /// - Parameter contents: The text of each file, keyed by the path used in
    ///   diagnostics.
    public static func sourceLines(from contents: [String: String]) -> SourceLineProvider {
        let lines = contents.mapValues { text in
            text.unicodeScalars
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in
                    String(Substring(line.last == "\r" ? line.dropLast() : line))
                }
        }
        return { file, line in
            guard let fileLines = lines[file], line >= 1, line <= fileLines.count else { return nil }
            return fileLines[line - 1]
        }
    }
}
