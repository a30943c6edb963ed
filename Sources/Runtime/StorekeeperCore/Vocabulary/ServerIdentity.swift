/// How the app identifies the user to its server.
public enum ServerIdentity: String, CaseIterable, Hashable, Sendable {
    /// The user signs in to an account (works across devices).
    case account
    /// A device identifier (cannot restore on another device).
    case device
}
