import StorekeeperCore
/// An action a scenario asked for that cannot run (approving a purchase that
/// is not waiting for Ask to Buy, buying while the app is not running): the
/// session stops with exit status 2.
public struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what would be right.
    public var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
