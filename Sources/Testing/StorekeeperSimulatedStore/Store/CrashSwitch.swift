import StorekeeperCore
import Foundation

/// Where the simulated app dies, as a scenario arms it, and the signal that
/// it did. A crash suspends the task that reached it for good: nothing of
/// what that task was about to commit is kept, as when a process is killed.
public final class CrashSwitch: Sendable {
    private struct State {
        var armed: (moment: CrashMoment, step: String)?
        var crashed: String??
        var waiters: [@Sendable (String?) -> Void] = []
        // Kept, never resumed: the crashed app's tasks stay suspended.
        var parked: [UnsafeContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// A switch with nothing armed.
    public init() {}

    /// Arms a crash: the app dies the next time a plan reaches `step` (before
    /// it runs), or right after the store finished a transaction (`after`, `finish`).
    package func arm(_ moment: CrashMoment, step: String) {
        state.withLock { $0.armed = (moment, step) }
    }

    /// A new launch: the app runs again (what is armed stays armed).
    package func relaunch() {
        state.withLock {
            $0.crashed = nil
            $0.waiters.removeAll()
        }
    }

    /// Dies here if a crash is armed at this point: never returns then.
    package func reach(_ moment: CrashMoment, step: String) async {
        let point: String? = state.withLock { state in
            guard let armed = state.armed, armed.moment == moment, armed.step == step, state.crashed == nil else { return nil }
            state.armed = nil
            return "\(moment.rawValue) \(step)"
        }
        guard let point else { return }
        crash(at: point)
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            state.withLock { $0.parked.append(continuation) }
        }
    }

    /// The app dies now (between actions: nothing is running).
    package func crash(at point: String?) {
        let waiters: [@Sendable (String?) -> Void] = state.withLock { state in
            state.crashed = .some(point)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter(point) }
    }

    /// Calls `body` when the app crashes (at once if it has).
    package func onCrash(_ body: @escaping @Sendable (String?) -> Void) {
        let crashed: String?? = state.withLock { state in
            if state.crashed == nil { state.waiters.append(body) }
            return state.crashed
        }
        if let crashed { body(crashed) }
    }
}
