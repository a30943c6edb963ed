public import StorekeeperRuntime

/// What the store answered for the identifiers it was asked about: the
/// products it sells, and the identifiers it does not know (a product not yet
/// approved, not cleared for sale, or misspelt in the catalog).
public struct ProductLookup: Sendable, Hashable {
    /// The products found, sorted by identifier.
    public var products: [StoreProduct]
    /// The identifiers asked for that the store does not know, sorted.
    public var unknownIDs: [String]

    /// Describes an answer.
    public init(products: [StoreProduct], unknownIDs: [String]) {
        self.products = products.sorted { $0.id < $1.id }
        self.unknownIDs = unknownIDs.sorted()
    }

    /// The product with an identifier, if the store sells it.
    public func product(_ id: String) -> StoreProduct? {
        products.first { $0.id == id }
    }
}

/// Loads products and their localized prices from a store: StoreKit's
/// `SKProductsRequest` or `Product.products(for:)`, or the simulated store.
public protocol ProductSource: Sendable {
    /// Asks the store for products by identifier. Throws `StepFailure` when
    /// the store cannot be reached (transient) or refuses (permanent).
    func products(for ids: Set<String>) async throws(StepFailure) -> ProductLookup
}
