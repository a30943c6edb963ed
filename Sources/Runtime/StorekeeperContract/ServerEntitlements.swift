public import Foundation

/// What the app's server derives from the user's purchases: the body of
/// `GET /v1/entitlements` (docs/server-contract.md).
///
/// Both sides code it with ``ContractCoding``: numbers are JSON numbers, so a
/// subscription's `expirationDate` may have a fraction, while balances and
/// what is owed must be whole numbers of 0 or more.
public struct ServerEntitlements: Sendable, Hashable, Codable {
    /// The features unlocked.
    public var features: [String]
    /// The balances, by name (what purchases granted less what was spent;
    /// 0 for one that is owed).
    public var balances: [String: Int]
    /// The balances whose net is below zero, and by how much: a refund took
    /// back what was already spent. Empty when the server sent none (the
    /// member is optional on the wire).
    public var owed: [String: Int]
    /// The subscriptions in effect.
    public var subscriptions: [Subscription]
    /// The products owned (not consumables).
    public var products: [String]

    /// Entitlements.
    public init(features: [String] = [], balances: [String: Int] = [:], owed: [String: Int] = [:], subscriptions: [Subscription] = [],
                products: [String] = []) {
        self.features = features
        self.balances = balances
        self.owed = owed
        self.subscriptions = subscriptions
        self.products = products
    }

    private enum CodingKeys: String, CodingKey { case features, balances, owed, subscriptions, products }

    /// Reads the wire form; a negative balance or amount owed is refused,
    /// naming the member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        features = try container.decode([String].self, forKey: .features)
        balances = try Self.amounts(in: container, at: .balances)
        owed = container.contains(.owed) ? try Self.amounts(in: container, at: .owed) : [:]
        subscriptions = try container.decode([Subscription].self, forKey: .subscriptions)
        products = try container.decode([String].self, forKey: .products)
    }

    /// Writes the wire form, `owed` always (a reader must accept its absence).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(features, forKey: .features)
        try container.encode(balances, forKey: .balances)
        try container.encode(owed, forKey: .owed)
        try container.encode(subscriptions, forKey: .subscriptions)
        try container.encode(products, forKey: .products)
    }

    /// A member's key in an object of amounts.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An object of whole amounts of 0 or more, by name; a fraction or a
    /// negative amount is refused naming the member (Foundation's own error
    /// for a fraction read as an integer names neither the member nor why).
    private static func amounts(in container: KeyedDecodingContainer<CodingKeys>, at key: CodingKeys) throws -> [String: Int] {
        let members = try container.nestedContainer(keyedBy: Name.self, forKey: key)
        var found: [String: Int] = [:]
        for name in members.allKeys {
            let amount = try? members.decode(Int.self, forKey: name)
            guard let amount, amount >= 0 else {
                let shown = amount.map(String.init) ?? (try? members.decode(Double.self, forKey: name)).map { "\($0)" } ?? "not a number"
                throw DecodingError.dataCorruptedError(forKey: name, in: members, debugDescription: "\(shown); expected a whole number of 0 or more")
            }
            found[name.stringValue] = amount
        }
        return found
    }

    /// A subscription in effect.
    public struct Subscription: Sendable, Hashable, Codable {
        /// The product subscribed to.
        public var product: String
        /// When the current period ends (seconds since 1970 on the wire).
        public var expirationDate: Date
        /// Where the subscription stands.
        public var status: Status

        /// A subscription.
        public init(product: String, expirationDate: Date, status: Status) {
            self.product = product
            self.expirationDate = expirationDate
            self.status = status
        }

        private enum CodingKeys: String, CodingKey { case product, expirationDate, status }

        /// Reads the wire form; the date is seconds since 1970, with a fraction.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            product = try container.decode(String.self, forKey: .product)
            let seconds = try container.decode(Double.self, forKey: .expirationDate)
            guard seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: .expirationDate, in: container, debugDescription: "not a finite number")
            }
            expirationDate = Date(timeIntervalSince1970: seconds)
            status = try container.decode(Status.self, forKey: .status)
        }

        /// Writes the wire form; the date as seconds since 1970.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(product, forKey: .product)
            try container.encode(expirationDate.timeIntervalSince1970, forKey: .expirationDate)
            try container.encode(status, forKey: .status)
        }
    }

    /// Where a subscription stands.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Paid for the current period.
        case active
        /// Renewal failed, the App Store's grace period runs: the user keeps access.
        case gracePeriod = "grace-period"
        /// Renewal failed and the App Store is retrying billing.
        case billingRetry = "billing-retry"
    }
}
