/// What `journal` prints: for each case, what its launches did and what the
/// journal looked like after them, so that a test can check the facts
/// itself rather than trust the drill's verdict.
struct JournalCasesSummary: Encodable {
    /// One launch of a case.
    struct Launch: Encodable {
        /// What the launch was for: `refused`, `holder`, `second`, `first`.
        var role: String
        /// Its exit status, when it exited.
        var exitStatus: Int32?
        /// The signal that ended it, when one did.
        var signal: Int32?
        /// Its standard error (at most 4,000 characters).
        var standardError: String
        /// For a launch that completed: whether its report equals the reference.
        var reportEqualsReference: Bool?
    }

    /// One case: a journal made unusable, or shared, and the launches over it.
    struct Case: Encodable {
        var name: String
        /// The journal's path.
        var journal: String
        var launches: [Launch]
        /// The journal's size in bytes before the case's last launch (after it was damaged).
        var journalBytesBefore: Int?
        /// The journal's size in bytes after the case's launches (nil when none is there).
        var journalBytesAfter: Int?
        /// Whether the store's finished log is byte for byte as it was before the launches.
        var finishedLogUnchanged: Bool
        /// The drill's verdict on the case.
        var passed: Bool
    }

    var cases: [Case]
    /// Whether every case passed.
    var passed: Bool
}
