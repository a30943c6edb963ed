import StorekeeperCore
package import StorekeeperRuntime

/// Watches every step a plan runs (`finish` excepted: the store sees it):
/// the simulator's trace and its crashes at a named step. Package-only: an
/// app hears of its transactions through `QueueEvent`s.
package struct StepProbe: Sendable {
    /// Called before a step runs. The simulator's crash suspends here for good,
    /// so nothing of the step or what follows it in the batch commits.
    package var willRun: @Sendable (_ transaction: TransactionInfo, _ step: String) async -> Void
    /// Called after a step ran: nil when it succeeded, else why it failed.
    package var didRun: @Sendable (_ transaction: TransactionInfo, _ step: String, _ failure: StepFailure?) -> Void

    /// Creates a probe.
    package init(willRun: @escaping @Sendable (TransactionInfo, String) async -> Void,
                 didRun: @escaping @Sendable (TransactionInfo, String, StepFailure?) -> Void) {
        self.willRun = willRun
        self.didRun = didRun
    }
}
