import StorekeeperStoreKit

/// One launch's `Transaction.updates`: what StoreKit emits waits here until the app's listener asks for it
/// (Apple: "If your app has unfinished transactions, the updates listener receives them once, immediately
/// after the app launches": https://developer.apple.com/documentation/storekit/transaction/updates), and a
/// driver can wait until the listener has taken and handled everything emitted ( ``drained()``): the
/// listener asks for the next element only once it handled the last, so no timing is guessed.
actor UpdateChannel {
    private var queued: [StoreKit2Verification]
    private var consumer: CheckedContinuation<StoreKit2Verification?, Never>?
    /// Whether the listener holds an element it has not finished handling.
    private var inHand = false
    private var drainWaiters: [CheckedContinuation<Void, Never>] = []
    private var ended = false

    /// A channel holding `backlog` (the launch's replay) for the listener.
    init(backlog: [StoreKit2Verification]) {
        queued = backlog
    }

    /// The listener's side.
    nonisolated func stream() -> AsyncStream<StoreKit2Verification> {
        AsyncStream(unfolding: { await self.next() })
    }

    /// Emits an update (kept until the listener asks); nothing once the launch ended.
    func emit(_ update: StoreKit2Verification) {
        guard !ended else { return }
        queued.append(update)
        handOver()
    }

    /// Returns once the listener has handled every update emitted so far, or the launch ended.
    func drained() async {
        if ended || (queued.isEmpty && !inHand) { return }
        await withCheckedContinuation { drainWaiters.append($0) }
    }

    /// The launch is over: the listener's loop ends; what it did not take is dropped (StoreKit keeps the
    /// transactions themselves, unfinished, for the next launch).
    func end() {
        ended = true
        inHand = false
        queued.removeAll()
        wakeDrainWaiters()
        if let consumer {
            self.consumer = nil
            consumer.resume(returning: nil)
        }
    }

    private func next() async -> StoreKit2Verification? {
        // Asking for the next element means the last one was handled.
        inHand = false
        if queued.isEmpty { wakeDrainWaiters() }
        if ended { return nil }
        return await withCheckedContinuation { continuation in
            consumer = continuation
            handOver()
        }
    }

    private func handOver() {
        guard let consumer, !queued.isEmpty else { return }
        self.consumer = nil
        inHand = true
        consumer.resume(returning: queued.removeFirst())
    }

    private func wakeDrainWaiters() {
        let waiters = drainWaiters
        drainWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
