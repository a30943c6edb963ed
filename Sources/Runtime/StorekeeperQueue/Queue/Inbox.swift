import Foundation

/// The queue's work, in arrival order: the store's events and the queue's
/// own wake-ups (a retry due). Taken in batches, so that one durable commit
/// covers many transactions.
final class Inbox: @unchecked Sendable {
    enum Item: Sendable {
        case store(StoreEvent)
        case wake
        case stop
    }

    private let lock = NSLock()
    private var items: [Item] = []
    /// Items before `head` were taken; dropped in bulk so taking stays linear.
    private var head = 0
    /// Whether items were taken and their work is not settled yet.
    private var working = false
    /// Work the queue started outside its loop (a promoted purchase being
    /// decided and bought) and not ended yet: the queue is not idle meanwhile.
    private var outside = 0
    private var waiter: CheckedContinuation<Void, Never>?

    func send(_ item: Item) {
        lock.lock()
        items.append(item)
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume()
    }

    /// Several items at once: the queue takes them together (or none of them yet).
    func send(contentsOf newItems: [Item]) {
        guard !newItems.isEmpty else { return }
        lock.lock()
        items.append(contentsOf: newItems)
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume()
    }

    /// Up to `limit` items, waiting until there is one.
    func take(limit: Int) async -> [Item] {
        while true {
            if let batch = takeAvailable(limit: limit) { return batch }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if head == items.count {
                    waiter = continuation
                    lock.unlock()
                } else {
                    lock.unlock()
                    continuation.resume()
                }
            }
        }
    }

    /// Whether nothing is waiting to be taken and nothing taken is still being worked on.
    var isIdle: Bool {
        lock.lock()
        defer { lock.unlock() }
        return head == items.count && !working && outside == 0
    }

    /// Notes work started outside the loop; ``endOutsideWork()`` ends it.
    func beginOutsideWork() {
        lock.lock()
        outside += 1
        lock.unlock()
    }

    /// Ends work started outside the loop, and wakes the loop, so that it
    /// settles (and tells those waiting for idle) even if the work sent nothing.
    func endOutsideWork() {
        lock.lock()
        outside -= 1
        lock.unlock()
        send(.wake)
    }

    /// The work taken is done: returns whether the inbox is now idle.
    func settle() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        working = head < items.count || outside > 0
        return !working
    }

    private func takeAvailable(limit: Int) -> [Item]? {
        lock.lock()
        defer { lock.unlock() }
        guard head < items.count else { return nil }
        let end = min(items.count, head + limit)
        let batch = Array(items[head..<end])
        head = end
        working = true
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return batch
    }
}
