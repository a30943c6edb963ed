import Synchronization

/// The deadlines of the leases waiting for a PostgreSQL connection, watched by one task for all of
/// them: a lease registers what to do when its wait expires and removes it once lent. A timer per
/// lease (a sleeping child task, cancelled when the connection comes) cost every transaction a task
/// group, two child tasks and a wake-up, about a tenth of a purchase's server CPU
/// (docs/performance.md); registering here is a dictionary entry under a lock.
///
/// The watcher looks every ``resolution``, so a wait expires up to that much after its deadline; it
/// ends when nothing waits and starts again with the next registration.
final class LeaseDeadlines: Sendable {
    private struct Waiting {
        var deadline: ContinuousClock.Instant
        var expire: @Sendable () -> Void
    }

    private struct State {
        var next = 0
        var waiting: [Int: Waiting] = [:]
        var watching = false
    }

    /// How often the watcher looks for expired waits.
    let resolution: Duration
    private let state = Mutex(State())

    init(resolution: Duration = .milliseconds(100)) {
        self.resolution = resolution
    }

    /// Calls `expire` once `wait` has passed, unless ``remove(_:)`` came first; answers the registration.
    func register(after wait: Duration, expire: @escaping @Sendable () -> Void) -> Int {
        let deadline = ContinuousClock.now.advanced(by: wait)
        let (id, startsWatcher) = state.withLock { state in
            state.next += 1
            state.waiting[state.next] = Waiting(deadline: deadline, expire: expire)
            defer { state.watching = true }
            return (state.next, !state.watching)
        }
        if startsWatcher { Task { await self.watch() } }
        return id
    }

    /// Forgets a registration whose lease was lent (or whose wait already expired).
    func remove(_ id: Int) {
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    /// Expires what is due every ``resolution`` while anything waits.
    private func watch() async {
        while true {
            try? await Task.sleep(for: resolution)
            let now = ContinuousClock.now
            let due: [Waiting]? = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.watching = false
                    return nil
                }
                let expired = state.waiting.filter { $0.value.deadline <= now }
                for id in expired.keys { state.waiting.removeValue(forKey: id) }
                return Array(expired.values)
            }
            guard let due else { return }
            for waiting in due { waiting.expire() }
        }
    }
}
