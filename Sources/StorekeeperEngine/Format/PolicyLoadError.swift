/// Why a compiled policy could not be loaded: where in the document (a path
/// such as `products[3].plans[2]`) and what would be right.
public struct PolicyLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where: a path into the document, or `line:column` for JSON syntax errors.
    public var path: String
    /// What is wrong, and what would be right.
    public var message: String

    /// Creates the error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
