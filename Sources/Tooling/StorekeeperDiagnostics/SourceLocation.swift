/// A position in a source file: 1-based line and column.
///
/// Columns count Unicode scalars (characters as an editor counts them in
/// most text), not bytes, so that a column means the same after accented or
/// non-Latin text in every format. (The text reporter's caret counts the
/// columns a terminal draws instead; see ``DisplayWidth``.)
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it (relative paths stay relative).
    public var file: String {
        didSet { fileID = nil }
    }
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int
    /// The file's number in `SourceFileTable`, when the creator knew it:
    /// making a `SourceRange` from this location then needs no table lookup.
    @usableFromInline var fileID: UInt32?

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// Creates a location in a file already numbered in `SourceFileTable`.
    @inlinable
    public init(file: String, fileID: UInt32, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
        self.fileID = fileID
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column)" }

    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column && lhs.file == rhs.file
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }
}

/// A span of source text: where a value starts and where it ends.
///
/// Stored compactly and without references (20 bytes: the file's number in
/// `SourceFileTable` and four 32-bit positions): every located value of a
/// catalog carries one, so copying it must cost no reference counting.
public struct SourceRange: Hashable, Sendable, BitwiseCopyable {
    /// The file's number in `SourceFileTable`.
    public var fileID: UInt32
    @usableFromInline var startLine: UInt32
    @usableFromInline var startColumn: UInt32
    @usableFromInline var endLine: UInt32
    @usableFromInline var endColumn: UInt32

    /// Creates a range; `end` defaults to `start` (a point) and is taken to
    /// be in the same file as `start`.
    public init(start: SourceLocation, end: SourceLocation? = nil) {
        let end = end ?? start
        fileID = start.fileID ?? SourceFileTable.id(for: start.file)
        startLine = UInt32(clamping: start.line)
        startColumn = UInt32(clamping: start.column)
        endLine = UInt32(clamping: end.line)
        endColumn = UInt32(clamping: end.column)
    }

    /// Creates a range in a file already numbered (no table lookup).
    @inlinable
    public init(fileID: UInt32, startLine: UInt32, startColumn: UInt32, endLine: UInt32, endColumn: UInt32) {
        self.fileID = fileID
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine
        self.endColumn = endColumn
    }

    /// The path of the file.
    public var file: String { SourceFileTable.path(for: fileID) }

    /// The first character of the span.
    public var start: SourceLocation {
        get { SourceLocation(file: file, fileID: fileID, line: Int(startLine), column: Int(startColumn)) }
        set {
            fileID = newValue.fileID ?? SourceFileTable.id(for: newValue.file)
            startLine = UInt32(clamping: newValue.line)
            startColumn = UInt32(clamping: newValue.column)
        }
    }

    /// The position just after the last character.
    public var end: SourceLocation {
        get { SourceLocation(file: file, fileID: fileID, line: Int(endLine), column: Int(endColumn)) }
        set {
            endLine = UInt32(clamping: newValue.line)
            endColumn = UInt32(clamping: newValue.column)
        }
    }
}

extension SourceRange {
    /// Whether `location` is in the span: at its start, or after it and
    /// before its end (in the same file).
    public func contains(_ location: SourceLocation) -> Bool {
        guard (location.fileID ?? SourceFileTable.id(for: location.file)) == fileID else { return false }
        let point = (UInt32(clamping: location.line), UInt32(clamping: location.column))
        let start = (startLine, startColumn), end = (endLine, endColumn)
        return point == start || (start < point && point < end)
    }
}
