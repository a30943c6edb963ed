import StorekeeperCatalog
import StorekeeperCore
public import StorekeeperDiagnostics

/// An entry of `subscriptionGroups`.
public struct StoreKitGroup: Sendable {
    /// `id`: Xcode's id of the group.
    public var id: Located<String>?
    /// `name`.
    public var name: Located<String>
    /// `localizations`: the group's name (`displayName`) and custom app name
    /// (`description`) by locale.
    public var localizations: [StoreKitLocalization]
    /// `subscriptions`.
    public var subscriptions: [StoreKitProduct]
    /// The group's object.
    public var range: SourceRange
    /// Its JSON path, for messages: `subscriptionGroups[1]`.
    public var path: String

    /// Creates a group.
    public init(
        id: Located<String>?, name: Located<String>, localizations: [StoreKitLocalization], subscriptions: [StoreKitProduct],
        range: SourceRange, path: String
    ) {
        self.id = id
        self.name = name
        self.localizations = localizations
        self.subscriptions = subscriptions
        self.range = range
        self.path = path
    }
}
