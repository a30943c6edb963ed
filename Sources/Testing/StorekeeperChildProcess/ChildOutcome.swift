/// What a child process came to: how it ended, what it wrote where it was captured, and what it cost.
public struct ChildOutcome: Sendable, Hashable {
    /// How it ended.
    public var termination: ChildTermination
    /// Its standard output, when captured (``ChildOutput/capture(limit:)``); otherwise empty.
    public var standardOutput: [UInt8]
    /// Its standard error, when captured; otherwise empty.
    public var standardError: [UInt8]
    /// Whether it wrote more standard output than the capture's limit, and was stopped for it.
    public var standardOutputExceededLimit: Bool
    /// Whether it wrote more standard error than the capture's limit, and was stopped for it.
    public var standardErrorExceededLimit: Bool
    /// Whether the `killAfter` delay of the wait passed while it ran, so that SIGKILL was sent
    /// (it may have exited on its own just before: ``termination`` says how it ended).
    public var delayedKillSent: Bool
    /// Whether it was still running at the wait's `timeout`, and was killed (SIGKILL) for it.
    public var timedOut: Bool
    /// Wall time from just before the spawn to its reaping, on a monotonic clock.
    public var elapsed: Duration
    /// Its peak resident set size (`ru_maxrss` from `wait4`), in KiB on every system.
    public var peakResidentKiB: Int

    init(
        termination: ChildTermination, standardOutput: [UInt8] = [], standardError: [UInt8] = [],
        standardOutputExceededLimit: Bool = false, standardErrorExceededLimit: Bool = false,
        delayedKillSent: Bool = false, timedOut: Bool = false, elapsed: Duration = .zero, peakResidentKiB: Int = 0
    ) {
        self.termination = termination
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardOutputExceededLimit = standardOutputExceededLimit
        self.standardErrorExceededLimit = standardErrorExceededLimit
        self.delayedKillSent = delayedKillSent
        self.timedOut = timedOut
        self.elapsed = elapsed
        self.peakResidentKiB = peakResidentKiB
    }
}
