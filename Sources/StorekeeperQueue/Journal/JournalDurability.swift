/// How much the journal survives.
public enum JournalDurability: Sendable, Hashable {
    /// Every commit is on the disk before the queue goes on (SQLite
    /// `synchronous=FULL`): survives the app's crash and the device's power loss.
    case full
    /// Every commit survives the app's crash (SQLite `synchronous=NORMAL` in
    /// WAL mode) but the last ones may be lost if the device loses power.
    case appCrash
}
