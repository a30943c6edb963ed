/// How much the journal survives. In both, the store is asked to finish a
/// transaction only once what its steps delivered is on the disk (a finished
/// transaction is never delivered again), and an app crash loses nothing.
public enum JournalDurability: Sendable, Hashable {
    /// Every commit is on the disk before the queue goes on (SQLite
    /// `synchronous=FULL`): survives the app's crash and the device's power loss.
    case full
    /// Commits that a store finish or a revocation follows are on the disk
    /// before the queue goes on; the others (SQLite `synchronous=NORMAL` in
    /// WAL mode) survive the app's crash, but a power loss may take the last
    /// of them: the progress of transactions not yet finished, which the
    /// store delivers again, and `finish` marks, which run again.
    case appCrash
}
