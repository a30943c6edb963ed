import StorekeeperCore

/// The queue's work, in arrival order: the store's events and the queue's
/// own wake-ups (a retry due). Taken in batches, so that one durable commit
/// covers many transactions.
final class Inbox: Sendable {
    enum Item: Sendable {
        case store(StoreEvent)
        case wake
        case stop
    }

    /// What the lock guards.
    private struct State {
        var items: [Item] = []
        /// Items before `head` were taken; dropped in bulk so taking stays linear.
        var head = 0
        /// Whether items were taken and their work is not settled yet.
        var working = false
        /// Work the queue started outside its loop (a promoted purchase being
        /// decided and bought) and not ended yet: the queue is not idle meanwhile.
        var outside = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func send(_ item: Item) {
        let waiting = state.withLock { state in
            state.items.append(item)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    /// Several items at once: the queue takes them together (or none of them yet).
    func send(contentsOf newItems: [Item]) {
        guard !newItems.isEmpty else { return }
        let waiting = state.withLock { state in
            state.items.append(contentsOf: newItems)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    /// Up to `limit` items, waiting until there is one.
    func take(limit: Int) async -> [Item] {
        while true {
            if let batch = takeAvailable(limit: limit) { return batch }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state in
                    guard state.head == state.items.count else { return false }
                    state.waiter = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        }
    }

    /// Whether nothing is waiting to be taken and nothing taken is still being worked on.
    var isIdle: Bool {
        state.withLock { $0.head == $0.items.count && !$0.working && $0.outside == 0 }
    }

    /// Notes work started outside the loop; ``endOutsideWork()`` ends it.
    func beginOutsideWork() {
        state.withLock { $0.outside += 1 }
    }

    /// Ends work started outside the loop, and wakes the loop, so that it
    /// settles (and tells those waiting for idle) even if the work sent nothing.
    func endOutsideWork() {
        state.withLock { $0.outside -= 1 }
        send(.wake)
    }

    /// The work taken is done: returns whether the inbox is now idle.
    func settle() -> Bool {
        state.withLock { state in
            state.working = state.head < state.items.count || state.outside > 0
            return !state.working
        }
    }

    private func takeAvailable(limit: Int) -> [Item]? {
        state.withLock { state in
            guard state.head < state.items.count else { return nil }
            let end = min(state.items.count, state.head + limit)
            let batch = Array(state.items[state.head..<end])
            state.head = end
            state.working = true
            if state.head == state.items.count {
                state.items.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 4096, state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return batch
        }
    }
}
