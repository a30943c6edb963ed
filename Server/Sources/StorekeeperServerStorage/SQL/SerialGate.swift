/// A first-come, first-served lock for async code: one holder at a time,
/// the others wait without blocking a thread. SQLite has one writer; its
/// transactions span several awaits, so they take turns here.
actor SerialGate {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` as the only holder.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let result = try await body()
            leave()
            return result
        } catch {
            leave()
            throw error
        }
    }

    private func enter() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the gate to the next in line, or opens it.
    private func leave() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
