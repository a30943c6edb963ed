/// What an app account is entitled to at an instant: the body of the server's `GET /v1/entitlements`, by the
/// rules of docs/store-model.md ("Expected entitlements", Storekeeper's choices where Apple leaves them open).
public struct ExpectedEntitlements: Sendable, Equatable, CustomStringConvertible {
    /// An auto-renewable subscription as listed.
    public struct Subscription: Sendable, Equatable {
        /// The current period's product.
        public var product: String
        /// Seconds since 1970: the current period's end, or the grace period's end while in it.
        public var expirationDate: Double
        /// `active`, `grace-period` or `billing-retry`.
        public var status: String

        /// A listed subscription.
        public init(product: String, expirationDate: Double, status: String) {
            self.product = product
            self.expirationDate = expirationDate
            self.status = status
        }
    }

    /// Features unlocked, sorted.
    public var features: [String]
    /// Products owned (never consumables), sorted.
    public var products: [String]
    /// Every balance the policy declares: max(0, net).
    public var balances: [String: Int]
    /// Balances whose net is below zero, as positive amounts.
    public var owed: [String: Int]
    /// Auto-renewable subscriptions listed, sorted by (product, expirationDate).
    public var subscriptions: [Subscription]

    /// Entitlements.
    public init(features: [String] = [], products: [String] = [], balances: [String: Int] = [:], owed: [String: Int] = [:],
                subscriptions: [Subscription] = []) {
        self.features = features
        self.products = products
        self.balances = balances
        self.owed = owed
        self.subscriptions = subscriptions
    }

    /// A one-line, deterministic rendering (keys sorted), for failure messages.
    public var description: String {
        let balances = self.balances.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let owed = self.owed.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let subscriptions = self.subscriptions.map { "\($0.product) \($0.status) until \($0.expirationDate)" }.joined(separator: ", ")
        return "features [\(features.joined(separator: ", "))], products [\(products.joined(separator: ", "))], "
            + "balances {\(balances)}, owed {\(owed)}, subscriptions [\(subscriptions)]"
    }
}
