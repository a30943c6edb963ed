/// A stream whose sender waits until the consumer has handled what it sent:
/// `send` returns once the consumer asks for the next element (or the stream
/// ends), so a test goes on only after the backend has acted, with no timing.
actor HandshakeStream<Element: Sendable> {
    /// Elements not yet taken, each with the sender waiting for it to be handled (none for the backlog).
    private var queued: [(Element, CheckedContinuation<Void, Never>?)] = []
    private var consumer: CheckedContinuation<Element?, Never>?
    /// Whether the consumer holds an element it has not finished handling.
    private var inHand = false
    private var handedOut: CheckedContinuation<Void, Never>?
    private var drainWaiters: [CheckedContinuation<Void, Never>] = []
    private var ended = false

    /// A stream that yields `backlog` first, with no sender waiting for it.
    init(backlog: [Element] = []) {
        queued = backlog.map { ($0, nil) }
    }

    /// The consumer's side: each element is asked for after the last was handled.
    nonisolated func stream() -> AsyncStream<Element> {
        AsyncStream(unfolding: { await self.next() })
    }

    /// Sends an element and returns once the consumer has handled it.
    func send(_ element: Element) async {
        await withCheckedContinuation { (handled: CheckedContinuation<Void, Never>) in
            queued.append((element, handled))
            deliverIfWanted()
        }
    }

    /// Returns once every element so far (the backlog included) has been
    /// handled, or the stream ended.
    func drained() async {
        if ended || (queued.isEmpty && !inHand) { return }
        await withCheckedContinuation { drainWaiters.append($0) }
    }

    /// Ends the stream (the test is over).
    func end() {
        ended = true
        inHand = false
        handedOut?.resume()
        handedOut = nil
        for (_, handled) in queued { handled?.resume() }
        queued.removeAll()
        resumeDrainWaiters()
        if let consumer {
            self.consumer = nil
            consumer.resume(returning: nil)
        }
    }

    private func next() async -> Element? {
        inHand = false
        handedOut?.resume()
        handedOut = nil
        if queued.isEmpty { resumeDrainWaiters() }
        if ended { return nil }
        return await withCheckedContinuation { consumer = $0; deliverIfWanted() }
    }

    private func deliverIfWanted() {
        guard let consumer, !queued.isEmpty else { return }
        let (element, handled) = queued.removeFirst()
        self.consumer = nil
        inHand = true
        handedOut = handled
        consumer.resume(returning: element)
    }

    private func resumeDrainWaiters() {
        let waiters = drainWaiters
        drainWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
