import StorekeeperCore
public import Foundation

/// The simulated time: it moves only when told to (a month passes in an
/// instant), so that a session's dates depend on its script alone. The queue
/// reads it through `QueueConfiguration.now` to end subscriptions.
public final class SimulationClock: Sendable {
    private let current: Locked<Date>

    /// A clock at `start`.
    public init(start: Date) {
        current = Locked(start)
    }

    /// The simulated time now.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock to `date` (never backwards).
    public func move(to date: Date) {
        current.withLock { if date > $0 { $0 = date } }
    }
}
