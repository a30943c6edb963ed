import StorekeeperCore
import Foundation

/// Collects a simulation's trace, from the store, the queue's probe and
/// observer, and the runner, in the order they happen, and hands each event
/// to a listener as it comes (the CLI prints them live).
public final class TraceRecorder: Sendable {
    private let events = Locked<[TraceEvent]>([])
    private let listener: (@Sendable (TraceEvent) -> Void)?

    /// A recorder; `listener` sees each event as it is recorded.
    public init(listener: (@Sendable (TraceEvent) -> Void)? = nil) {
        self.listener = listener
    }

    /// Records an event.
    public func record(_ event: TraceEvent) {
        events.withLock { $0.append(event) }
        listener?(event)
    }

    /// Every event so far.
    public var recorded: [TraceEvent] { events.withLock { $0 } }
}
