import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// An Xcode StoreKit configuration file (`.storekit`), read: what the
/// catalog can hold, located, and the whole tree for what it cannot.
public struct StoreKitConfiguration: Sendable {
    /// The file's path.
    public var file: String
    /// `version`.
    public var version: Located<StoreKitVersion>
    /// `products` and `nonRenewingSubscriptions`, in file order.
    public var products: [StoreKitProduct]
    /// `subscriptionGroups`.
    public var groups: [StoreKitGroup]
    /// The whole file: what `export --base` keeps.
    public var root: StoreKitNode

    /// Creates a configuration.
    public init(file: String, version: Located<StoreKitVersion>, products: [StoreKitProduct], groups: [StoreKitGroup], root: StoreKitNode) {
        self.file = file
        self.version = version
        self.products = products
        self.groups = groups
        self.root = root
    }

    /// Every product: `products`, `nonRenewingSubscriptions`, then each group's subscriptions.
    public var allProducts: [StoreKitProduct] { products + groups.flatMap(\.subscriptions) }
}
