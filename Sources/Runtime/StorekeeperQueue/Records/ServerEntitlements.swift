import Foundation

/// What the app's server derives from the user's purchases: the body of
/// `GET /v1/entitlements` (docs/server-contract.md).
public struct ServerEntitlements: Sendable, Hashable, Decodable {
    /// The features unlocked.
    public var features: [String]
    /// The balances, by name (what purchases granted less what was spent).
    public var balances: [String: Int]
    /// The subscriptions in effect.
    public var subscriptions: [Subscription]
    /// The products owned (not consumables).
    public var products: [String]

    /// Entitlements.
    public init(features: [String] = [], balances: [String: Int] = [:], subscriptions: [Subscription] = [], products: [String] = []) {
        self.features = features
        self.balances = balances
        self.subscriptions = subscriptions
        self.products = products
    }

    /// A subscription in effect.
    public struct Subscription: Sendable, Hashable, Decodable {
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
    }

    /// Where a subscription stands.
    public enum Status: String, Sendable, Hashable, Decodable, CaseIterable {
        /// Paid for the current period.
        case active
        /// Renewal failed, the App Store's grace period runs: the user keeps access.
        case gracePeriod = "grace-period"
        /// Renewal failed and the App Store is retrying billing.
        case billingRetry = "billing-retry"
    }
}
