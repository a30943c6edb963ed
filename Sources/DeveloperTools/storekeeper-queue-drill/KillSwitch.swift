import Foundation

import StorekeeperCore
import StorekeeperPlatform

/// Decides, at each ``KillPoint`` a launch reaches, whether the process
/// kills itself there with SIGKILL: never, at random with a probability
/// (seeded, so that a failing launch can be replayed), or at the n-th time
/// one chosen point is reached.
///
/// SIGKILL and not `exit` or a crash: nothing runs after it (no `defer`, no
/// buffered write, no SQLite cleanup), as when the system ends an app.
final class KillSwitch: Sendable {
    /// When to kill.
    enum Mode: Sendable {
        /// Never: a clean launch.
        case never
        /// At each point, with this probability, drawn from a generator with this seed.
        case random(probability: Double, seed: UInt64)
        /// The `count`-th time `point` is reached (from 1), and nowhere else.
        case at(KillPoint, count: Int)
    }

    // The points are reached from the queue's actor, the store's, the record
    // stores' and the step's task: one lock orders the draws, so that a seed
    // names one sequence of decisions for a given order of points.
    private let mode: Mode
    private let draws: Locked<(generator: SplitMix64, reached: [KillPoint: Int])>

    /// A switch for `mode`.
    init(_ mode: Mode) {
        self.mode = mode
        if case .random(_, let seed) = mode {
            draws = Locked((SplitMix64(seed: seed), [:]))
        } else {
            draws = Locked((SplitMix64(seed: 0), [:]))
        }
    }

    /// Whether killing is possible at all (so that callers can skip work that only a kill needs).
    var isArmed: Bool {
        if case .never = mode { return false }
        return true
    }

    /// Kills the process if the switch decides so at `point`; returns otherwise.
    func reach(_ point: KillPoint) {
        if decides(point) { Self.die(at: point) }
    }

    /// Whether the process is to die at `point`, for a caller that has
    /// something to do first (write a torn line, say) and then calls ``die(at:)``.
    func decides(_ point: KillPoint) -> Bool {
        draws.withLock { draws in
            let count = draws.reached[point, default: 0] + 1
            draws.reached[point] = count
            switch mode {
            case .never:
                return false
            case .random(let probability, _):
                return draws.generator.chance(probability)
            case .at(let chosen, let target):
                return chosen == point && count == target
            }
        }
    }

    /// Says where on standard error (the supervisor tallies the points), then
    /// sends SIGKILL to this process.
    static func die(at point: KillPoint) -> Never {
        StandardError.print("storekeeper-queue-drill: killing itself at \(point.rawValue)")
        kill(getpid(), SIGKILL)
        // SIGKILL cannot be caught or ignored; the process ends before this
        // returns. The loop only tells the compiler so.
        while true { pause() }
    }
}
