/// Where the record of a purchase is kept.
public enum PersistenceStrategy: String, CaseIterable, Hashable, Sendable {
    /// The app receipt is the record.
    case receipt
    /// The user defaults system.
    case userDefaults = "user-defaults"
    /// iCloud's key-value store, synced across devices.
    case icloud
    /// The app's server, keyed by the user's account.
    case server
    /// The app's own preserved state (for consumables).
    case appState = "app-state"
}
