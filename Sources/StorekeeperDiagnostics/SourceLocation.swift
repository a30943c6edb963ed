/// A position in a source file: 1-based line and column.
///
/// Columns count Unicode scalars (characters as an editor shows them in most
/// text), not bytes, so a caret printed under a line lands on the right place
/// even after accented or non-Latin text.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it (relative paths stay relative).
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }
}

/// A span of source text: where a value starts and where it ends.
public struct SourceRange: Hashable, Sendable {
    /// The first character of the span.
    public var start: SourceLocation
    /// The position just after the last character (same file as `start`).
    public var end: SourceLocation

    /// Creates a range; `end` defaults to `start` (a point).
    public init(start: SourceLocation, end: SourceLocation? = nil) {
        self.start = start
        self.end = end ?? start
    }
}
