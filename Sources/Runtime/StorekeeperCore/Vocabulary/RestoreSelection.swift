/// Which content a restore downloads again.
public enum RestoreSelection: String, CaseIterable, Hashable, Sendable {
    /// Everything.
    case all
    /// What the user chooses.
    case user
}
