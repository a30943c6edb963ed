/// The format version a StoreKit configuration file declares (`version`:
/// `{"major": 4, "minor": 0}`).
public struct StoreKitVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int

    /// Creates a version.
    public init(_ major: Int, _ minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// The versions Xcode has written, oldest first, and which this reader
    /// reads: 1.0 (Xcode 12), 1.1 (`identifier`, `nonRenewingSubscriptions`),
    /// 1.2 (`codeOffers`), 2.0 (Xcode 14: synchronized files), 3.0 (Xcode 15),
    /// 4.0 (Xcode 16: `appPolicies`, `winbackOffers`) and 5.0 (billing plans,
    /// `introductoryOffers`). docs/storekit.md gives the sources.
    public static let supported: [StoreKitVersion] = [
        StoreKitVersion(1, 0), StoreKitVersion(1, 1), StoreKitVersion(1, 2), StoreKitVersion(2, 0),
        StoreKitVersion(3, 0), StoreKitVersion(4, 0), StoreKitVersion(5, 0),
    ]

    /// The version `export` writes without `--base`: Xcode 16's, which holds
    /// every kind of offer the catalog has.
    public static let written = StoreKitVersion(4, 0)

    /// The first version with `identifier` and `nonRenewingSubscriptions`.
    public static let nonRenewing = StoreKitVersion(1, 1)
    /// The first version with `codeOffers`.
    public static let codeOffers = StoreKitVersion(1, 2)
    /// The first version with `winbackOffers` and `appPolicies`.
    public static let winBackOffers = StoreKitVersion(4, 0)
    /// The first version with `billingPlans` and `introductoryOffers`.
    public static let billingPlans = StoreKitVersion(5, 0)

    /// "4.0".
    public var description: String { "\(major).\(minor)" }

    /// The `version` object.
    public var value: StoreKitValue { .object(["major": .integer(major), "minor": .integer(minor)]) }

    public static func < (lhs: StoreKitVersion, rhs: StoreKitVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
