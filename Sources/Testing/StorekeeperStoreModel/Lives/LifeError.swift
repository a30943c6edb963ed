/// Why a random life could not go on: the model refused to move its clock, or could not even start.
/// A bug of the model (or of the life's settings), never of the server.
public struct LifeError: Error, Sendable, CustomStringConvertible {
    /// The life's seed.
    public var seed: UInt64
    /// The step at which it happened.
    public var step: Int
    /// What happened.
    public var message: String

    /// An error.
    public init(seed: UInt64, step: Int, message: String) {
        self.seed = seed
        self.step = step
        self.message = message
    }

    public var description: String { "life \(seed), step \(step): \(message)" }
}
