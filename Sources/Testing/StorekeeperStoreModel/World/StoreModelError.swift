/// Why the model refused an action: it names what was asked and what would be
/// valid instead, so a random life's driver can pick another action.
public struct StoreModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what would be right.
    public var message: String

    /// An error with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
