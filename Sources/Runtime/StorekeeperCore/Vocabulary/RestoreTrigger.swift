/// What starts a restore.
public enum RestoreTrigger: String, CaseIterable, Hashable, Sendable {
    /// A Restore Purchases button.
    case user
    /// Every launch (prompts for credentials; discouraged).
    case launch
}
