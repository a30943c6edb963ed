public import StorekeeperCore

/// A catalog compiled into one plan per product and situation: what the
/// transaction queue dispatches each transaction to.
///
/// Dispatch is a table lookup: a product's handle and the transaction's
/// state (and error) index a table of plan numbers; no rule is matched and
/// no string compared at run time.
///
/// ```swift
/// let policy = try PolicyCompiler(plugins: plugins).compile(catalog)
/// if let coins = policy.product(id: "rocket.coins.100") {
///     let plan = policy.plan(for: coins, state: .purchased)
///     print(plan.stepNames)   // ["persist", "grant", "notify", "finish"]
/// }
/// ```
public struct CompiledPolicy: Sendable {
    /// The version of the compiled format this policy reads and writes.
    package static let formatVersion = 3

    /// The catalog's name.
    public let catalog: String
    /// The catalog's files, catalog first: what provenance positions name.
    public let files: [String]
    /// The app's server URL, if the catalog declares one.
    public let server: String?
    /// The server URL parsed by the rule the catalog and the policy reader
    /// checked it with: what a `ServerTransport` sends requests to. Nil
    /// without a server (or, for a policy built by hand, with a URL the rule refuses).
    package var serverURL: ServerURL? { server.flatMap { try? ServerURL(parsing: $0) } }
    /// What an App Store refund takes back of a balance (coins) that a
    /// consumable granted and the user has already spent: the catalog's
    /// `refunds: {spent-balance: ...}`, `owe` when it does not say.
    ///
    /// With `RefundedSpendPolicy.owe` the refund takes back the whole
    /// refunded share and what the balance cannot cover is owed (later
    /// grants pay it first); with `RefundedSpendPolicy.forgive` it takes
    /// back at most what the balance holds then, and nothing is owed. The
    /// policy only carries the choice, for whatever keeps the balances (the
    /// server's ledger, the device's queue) to apply.
    public let refundedSpendPolicy: RefundedSpendPolicy
    /// The declared features.
    public let features: [String]
    /// The declared balances.
    public let balances: [String]
    /// The products, in catalog order.
    public let products: [ProductPolicy]
    /// The custom rules, in catalog order.
    public let rules: [RuleReference]
    /// The distinct plans; the table holds their positions.
    public let plans: [Plan]
    /// The plugins the steps resolved to.
    public let plugins: PluginRegistry
    /// `plans` positions, `SituationSlot.count` per product.
    @usableFromInline package let table: [Int32]
    /// Product ids to positions: a flat table with a fast hash, since
    /// finding a product by id is half of dispatching by id.
    let productIndex: ProductIndex

    package init(catalog: String, files: [String], server: String?, refundedSpendPolicy: RefundedSpendPolicy,
         features: [String], balances: [String], products: [ProductPolicy], rules: [RuleReference], plans: [Plan],
         plugins: PluginRegistry, table: [Int32]) {
        self.catalog = catalog
        self.files = files
        self.server = server
        self.refundedSpendPolicy = refundedSpendPolicy
        self.features = features
        self.balances = balances
        self.products = products
        self.rules = rules
        self.plans = plans
        self.plugins = plugins
        self.table = table
        productIndex = ProductIndex(products.map(\.id))
    }

    /// The handle of a product, by id.
    public func product(id: String) -> ProductHandle? {
        productIndex.index(of: id).map { ProductHandle(index: Int($0)) }
    }

    /// The product a handle names.
    public func product(_ handle: ProductHandle) -> ProductPolicy { products[handle.index] }

    /// The position in `plans` of a product's plan for a state (and, for
    /// `failed`, the store's error: none counts as `unknown`).
    @inlinable
    public func planIndex(for product: ProductHandle, state: TransactionState, error: StoreErrorCode? = nil) -> Int {
        Int(table[product.index &* SituationSlot.count &+ SituationSlot.slot(state, error: error)])
    }

    /// A product's plan for a state (and, for `failed`, the store's error).
    @inlinable
    public func plan(for product: ProductHandle, state: TransactionState, error: StoreErrorCode? = nil) -> Plan {
        plans[planIndex(for: product, state: state, error: error)]
    }

    /// A product's plan for a situation.
    public func plan(for product: ProductHandle, in situation: PlanSituation) -> Plan {
        plan(for: product, state: situation.state, error: situation.error)
    }

    /// The plan for a transaction, or nil when its product is not in the policy.
    public func plan(for transaction: TransactionInfo) -> Plan? {
        product(id: transaction.productID).map { plan(for: $0, state: transaction.state, error: transaction.error) }
    }
}
