/// Where a transaction's plan is, for one situation.
public enum DispatchStatus: Int, Sendable, Hashable {
    /// Steps remain and will run now.
    case running = 0
    /// A step failed for a passing reason; it is tried again at `retryAt`.
    case waiting = 1
    /// A step failed for good (a receipt not valid, a step not registered):
    /// the transaction stays unfinished, so the store delivers it again at
    /// the next launch, when the plan is tried once more.
    case halted = 2
    /// Every step ran.
    case done = 3
    /// A later state of the same transaction arrived first or meanwhile;
    /// this situation's remaining steps no longer apply.
    case superseded = 4
}
