public import StorekeeperCore
public import StorekeeperDiagnostics

/// A whole catalog: the catalog file and every fragment it includes, decoded,
/// with defaults applied and references checked.
///
/// Only products that decoded without errors are listed; the diagnostics that
/// came with the catalog say what was wrong with the others.
public struct Catalog: Sendable, Hashable {
    /// The catalog's name.
    public var name: Located<String>
    /// The format version (1).
    public var format: Int
    /// The app the catalog is for.
    public var app: App
    /// The app's server, if the catalog declares one.
    public var server: Server?
    /// Whether the catalog writes a `server` that could not be read (its
    /// error is reported): `server` is then nil, but checks that need a
    /// server do not report it missing as well.
    public var serverIsInvalid: Bool
    /// The catalog's `refunds`, if it writes one.
    public var refunds: Refunds?
    /// Declared features, in order.
    public var features: [Located<String>]
    /// Declared balances, in order.
    public var balances: [Located<String>]
    /// Declared subscription groups, in order.
    public var groups: [SubscriptionGroup]
    /// The products, in the order read (catalog file first, then each fragment).
    public var products: [Product]
    /// The custom rules, in the order read.
    public var rules: [CustomRule]
    /// Every file read: the catalog file first, then the fragments.
    public var files: [String]

    /// Creates a catalog.
    public init(
        name: Located<String>, format: Int = 1, app: App, server: Server? = nil, serverIsInvalid: Bool = false, refunds: Refunds? = nil,
        features: [Located<String>] = [], balances: [Located<String>] = [], groups: [SubscriptionGroup] = [], products: [Product] = [],
        rules: [CustomRule] = [], files: [String]
    ) {
        self.name = name
        self.format = format
        self.app = app
        self.server = server
        self.serverIsInvalid = serverIsInvalid
        self.refunds = refunds
        self.features = features
        self.balances = balances
        self.groups = groups
        self.products = products
        self.rules = rules
        self.files = files
    }

    /// What an App Store refund takes back of a balance already spent: the
    /// catalog's `refunds: {spent-balance: ...}`, or `owe` when not written.
    public var refundedSpendPolicy: RefundedSpendPolicy { refunds?.effectiveSpentBalance ?? .default }

    /// The product with an id, if the catalog has it.
    public func product(id: String) -> Product? { products.first { $0.id.value == id } }
}

/// The app a catalog is for.
public struct App: Sendable, Hashable {
    /// The reverse-DNS bundle identifier.
    public var bundleID: Located<String>
    /// The platforms (default `[ios]`).
    public var platforms: [Located<Platform>]
    /// The oldest OS version supported, `major.minor`.
    public var minimumOS: Located<OSVersion>?
    /// The `app` mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates an app.
    public init(bundleID: Located<String>, platforms: [Located<Platform>], minimumOS: Located<OSVersion>?, location: SourceLocation) {
        self.bundleID = bundleID
        self.platforms = platforms
        self.minimumOS = minimumOS
        position = SourceRange(start: location)
    }
}

/// An operating system version, `major.minor`.
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// "15.0".
    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}

/// The app's server.
public struct Server: Sendable, Hashable {
    /// Its base URL (https, or http on the local machine).
    public var url: Located<String>
    /// How the app identifies the user to it; nil when not written (account).
    public var identity: Located<ServerIdentity>?
    /// The `server` mapping in the source.
    public var location: SourceLocation {
        get { position.start }
        set { position = SourceRange(start: newValue) }
    }
    /// Where it was written, compactly (no reference counting on copies).
    private var position: SourceRange

    /// Creates a server.
    public init(url: Located<String>, identity: Located<ServerIdentity>?, location: SourceLocation) {
        self.url = url
        self.identity = identity
        position = SourceRange(start: location)
    }

    /// How the app identifies the user (default account).
    public var effectiveIdentity: ServerIdentity { identity?.value ?? .account }
}

/// A subscription group.
public struct SubscriptionGroup: Sendable, Hashable {
    /// The group's id, which products name in `group`.
    public var id: Located<String>
    /// Its display name.
    public var name: Located<String>
    /// Its display name by locale.
    public var localizations: [GroupLocalization]

    /// Creates a group.
    public init(id: Located<String>, name: Located<String>, localizations: [GroupLocalization] = []) {
        self.id = id
        self.name = name
        self.localizations = localizations
    }
}

/// A subscription group's display name in one locale.
public struct GroupLocalization: Sendable, Hashable {
    /// The locale.
    public var locale: Located<String>
    /// The display name.
    public var name: Located<String>

    /// Creates a group localization.
    public init(locale: Located<String>, name: Located<String>) {
        self.locale = locale
        self.name = name
    }
}
