/// Why bytes are not a body of the server contract, or a body breaks its
/// rules: a sentence that names the member at fault and what would be right.
public struct ContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    /// An error that says `description`.
    package init(_ description: String) { self.description = description }
}
