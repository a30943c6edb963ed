/// A platform an app runs on.
public enum Platform: String, CaseIterable, Hashable, Sendable {
    /// iPhone and iPad.
    case ios
    /// Mac.
    case macos
    /// Apple TV.
    case tvos
    /// Apple Watch.
    case watchos
    /// Apple Vision Pro.
    case visionos
}
