import Foundation

/// The model's clock, read by every queue of a life (`QueueConfiguration.now`): a driver moves it to each
/// moment's instant.
final class ModelClock: @unchecked Sendable {
    // @unchecked: `date` is behind `lock`.
    private let lock = NSLock()
    private var date: Date

    init(_ date: Date) { self.date = date }

    var now: Date {
        get { lock.withLock { date } }
        set { lock.withLock { date = newValue } }
    }
}
