/// Where downloaded content is kept on the device.
public enum ContentStorage: String, CaseIterable, Hashable, Sendable {
    /// The caches folder: may be purged, then downloaded again.
    case cache
    /// The documents folder, excluded from backups: kept.
    case documents
}
