import StorekeeperCore
/// A download's state, as the store reports it.
public enum DownloadState: String, Sendable, Hashable, CaseIterable {
    /// Not started (or no download for that product).
    case none
    /// Downloading.
    case active
    /// Paused by the user.
    case paused
    /// Stopped by a failure; can be resumed.
    case failed
    /// Cancelled by the user.
    case cancelled
    /// On the device.
    case finished
}
