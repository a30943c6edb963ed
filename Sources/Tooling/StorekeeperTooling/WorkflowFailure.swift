/// Why a workflow could not run at all (exit status 2 in the CLI): a path
/// that cannot be read, a folder with no catalog, a configuration that
/// cannot be found. Problems *in* the catalogs are diagnostics, not failures.
public struct WorkflowFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what would be right.
    public var message: String

    /// A failure.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
