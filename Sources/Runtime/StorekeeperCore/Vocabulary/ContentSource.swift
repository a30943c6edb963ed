/// Where a product's associated content comes from.
public enum ContentSource: String, CaseIterable, Hashable, Sendable {
    /// Shipped inside the app bundle.
    case bundle
    /// Hosted by Apple and downloaded through StoreKit.
    case appleHosted = "apple-hosted"
    /// Downloaded from the app's own server.
    case server
}
