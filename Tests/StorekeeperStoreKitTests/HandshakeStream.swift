/// A stream whose sender waits until the consumer has handled what it sent:
/// `send` returns once the consumer asks for the next element (or the stream
/// ends), so a test goes on only after the backend has acted, with no timing.
actor HandshakeStream<Element: Sendable> {
    private var queued: [(Element, CheckedContinuation<Void, Never>)] = []
    private var consumer: CheckedContinuation<Element?, Never>?
    private var handedOut: CheckedContinuation<Void, Never>?
    private var ended = false

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

    /// Ends the stream (the test is over).
    func end() {
        ended = true
        handedOut?.resume()
        handedOut = nil
        for (_, handled) in queued { handled.resume() }
        queued.removeAll()
        if let consumer {
            self.consumer = nil
            consumer.resume(returning: nil)
        }
    }

    private func next() async -> Element? {
        handedOut?.resume()
        handedOut = nil
        if ended { return nil }
        return await withCheckedContinuation { consumer = $0; deliverIfWanted() }
    }

    private func deliverIfWanted() {
        guard let consumer, !queued.isEmpty else { return }
        let (element, handled) = queued.removeFirst()
        self.consumer = nil
        handedOut = handled
        consumer.resume(returning: element)
    }
}
