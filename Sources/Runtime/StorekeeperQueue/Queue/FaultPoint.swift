/// Points in the queue's work where a crash test may stop the process, to
/// prove that a crash at each of them loses and repeats nothing.
package enum FaultPoint: String, Sendable, CaseIterable {
    /// Steps ran; their effects are not committed yet.
    case beforeCommit
    /// A batch committed; the store has not been told to finish.
    case afterCommit
    /// The store is about to be told to finish a transaction.
    case beforeFinish
    /// The store finished a transaction; the journal does not say so yet.
    case afterFinish
    /// A spend was checked; nothing of it is written yet.
    case beforeSpend
    /// A spend is in the journal: applied (kept on the device) or pending
    /// (kept in iCloud or on the server, not sent yet).
    case spendJournalled
    /// The iCloud store or the server took a spend; the journal still says pending.
    case spendSent
}
