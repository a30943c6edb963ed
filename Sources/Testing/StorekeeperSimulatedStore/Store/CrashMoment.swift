import StorekeeperCore
/// When an armed crash happens, relative to the step it is armed at.
public enum CrashMoment: String, Sendable, Hashable {
    /// The app dies when a plan reaches the step, before it runs.
    case before
    /// The app dies right after the store finished the transaction (`finish` only).
    case after
}
