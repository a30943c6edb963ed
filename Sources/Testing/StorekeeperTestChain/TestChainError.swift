/// Why the test chain could not make a certificate or a signature, or read a
/// signed payload it was given.
public struct TestChainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what would be right.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
