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
///
/// Stored compactly (one file name, four 32-bit positions): every located
/// value of a catalog carries one, so its size is the model's size.
public struct SourceRange: Hashable, Sendable {
    /// The file both ends are in.
    public var file: String
    private var startLine: Int32
    private var startColumn: Int32
    private var endLine: Int32
    private var endColumn: Int32

    /// Creates a range; `end` defaults to `start` (a point) and is taken to
    /// be in the same file as `start`.
    public init(start: SourceLocation, end: SourceLocation? = nil) {
        let end = end ?? start
        file = start.file
        startLine = Int32(clamping: start.line)
        startColumn = Int32(clamping: start.column)
        endLine = Int32(clamping: end.line)
        endColumn = Int32(clamping: end.column)
    }

    /// The first character of the span.
    public var start: SourceLocation {
        get { SourceLocation(file: file, line: Int(startLine), column: Int(startColumn)) }
        set {
            file = newValue.file
            startLine = Int32(clamping: newValue.line)
            startColumn = Int32(clamping: newValue.column)
        }
    }

    /// The position just after the last character.
    public var end: SourceLocation {
        get { SourceLocation(file: file, line: Int(endLine), column: Int(endColumn)) }
        set {
            endLine = Int32(clamping: newValue.line)
            endColumn = Int32(clamping: newValue.column)
        }
    }
}
