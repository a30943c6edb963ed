public import Foundation
import Synchronization

/// The clock a life's servers read: the model's `now`, set by the driver before each step's requests,
/// so that renewals, grace periods and expiries fall at the same instants for the model and the server.
public final class LifeClock: Sendable {
    private let date: Mutex<Date>

    /// A clock at `start`.
    public init(_ start: Date) {
        date = Mutex(start)
    }

    /// The instant the servers read now.
    public var now: Date { date.withLock { $0 } }

    /// Sets the instant.
    public func set(_ instant: Date) {
        date.withLock { $0 = instant }
    }
}
