public import Foundation

/// When a step that failed for a passing reason runs again: exponential
/// backoff, capped, with jitter so that many devices do not retry at once.
public struct RetryPolicy: Sendable, Hashable {
    /// The wait after the first failure.
    package var initialDelay: Duration
    /// How much each further failure multiplies the wait.
    package var multiplier: Double
    /// The longest wait.
    public var maximumDelay: Duration
    /// A fraction of the wait added or removed at random (0 for none).
    package var jitter: Double

    /// 1 s, doubling, at most 5 minutes, ±10%.
    public init(initialDelay: Duration = .seconds(1), multiplier: Double = 2, maximumDelay: Duration = .seconds(300), jitter: Double = 0.1) {
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maximumDelay = maximumDelay
        self.jitter = min(max(0, jitter), 1)
    }

    /// The wait after the given number of failures (1 for the first).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        let initial = initialDelay.seconds
        let maximum = maximumDelay.seconds
        let exponent = Double(max(0, min(failures - 1, 64)))
        var wait = min(maximum, initial * pow(multiplier, exponent))
        if jitter > 0 { wait *= 1 + Double.random(in: -jitter...jitter) }
        return max(0, wait)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
