import Foundation
import StorekeeperCore

/// The model's clock, read by every queue of a life (`QueueConfiguration.now`): a driver moves it to each
/// moment's instant.
final class ModelClock: Sendable {
    private let date: Locked<Date>

    init(_ date: Date) { self.date = Locked(date) }

    var now: Date {
        get { date.withLock { $0 } }
        set { date.withLock { $0 = newValue } }
    }
}
