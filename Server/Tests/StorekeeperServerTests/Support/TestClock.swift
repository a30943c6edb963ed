import Foundation
import Synchronization

/// The server's clock in a test: starts at ``ServerHarness/now`` and moves when the test says,
/// so that a test can look at entitlements after an expiry.
final class TestClock: Sendable {
    private let instant: Mutex<Date>

    init(_ start: Date = ServerHarness.now) { instant = Mutex(start) }

    /// The instant the server reads.
    var now: Date { instant.withLock { $0 } }

    /// Sets the clock to `date`.
    func set(_ date: Date) { instant.withLock { $0 = date } }
}
