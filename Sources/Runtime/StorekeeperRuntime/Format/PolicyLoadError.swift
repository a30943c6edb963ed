/// Why a compiled policy could not be loaded: where in the document (a path
/// such as `products[3].plans[2]`, or the line and column of a JSON syntax
/// error) and what would be right.
public struct PolicyLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where: a path into the document, or `line:column` for JSON syntax errors.
    public var path: String
    /// What is wrong, and what would be right.
    public var message: String
    /// The line of a JSON syntax error (1-based), nil for errors found in a parsed document.
    public var line: Int?
    /// The column of a JSON syntax error (1-based, in Unicode scalars).
    public var column: Int?

    /// Creates the error.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// An error in the JSON text itself, at a line and column.
    package init(line: Int, column: Int, message: String) {
        self.init(path: "\(line):\(column)", message: message)
        self.line = line
        self.column = column
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// The error as a compiler prints it, for the file `file`:
    /// `file:3:14: message` at a JSON syntax error, `file: path: message` otherwise.
    public func located(in file: String) -> String {
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file): \(description)"
    }
}
