package import Foundation
package import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// The simulated store's products: what it answers `SKProductsRequest` and
/// `Product.products(for:)` with.
///
/// A compiled policy carries no prices, names or descriptions (the catalog's
/// `price` and `localizations` stay with the tooling), so every product gets
/// a fixed price by its type, in US dollars, and its id as its name:
/// consumable 0.99, non-consumable 2.99, auto-renewable subscription 4.99,
/// non-renewing subscription 9.99 (docs/simulate.md, "Products"). The same
/// policy always gives the same answer.
extension SimulatedAppStore: ProductSource {
    /// The products of the policy asked for; ids the policy does not
    /// declare, and products made unavailable, are unknown.
    public func products(for ids: Set<String>) async throws(StepFailure) -> ProductLookup {
        var products: [StoreProduct] = []
        var unknown: [String] = []
        for id in ids {
            guard !unavailableProducts.contains(id), let handle = policy.product(id: id) else {
                unknown.append(id)
                continue
            }
            products.append(Self.storeProduct(policy.product(handle)))
        }
        return ProductLookup(products: products, unknownIDs: unknown)
    }

    /// Stops selling products (not yet approved, removed from sale), or
    /// sells them again: a lookup then lists them as unknown.
    public func setUnavailable(_ ids: Set<String>) {
        unavailableProducts = ids
    }

    /// The price every product of a type has in the simulation, in US dollars.
    package static func simulatedPrice(of type: ProductType) -> Decimal {
        switch type {
        case .consumable: Decimal(99) / 100
        case .nonConsumable: Decimal(299) / 100
        case .autoRenewableSubscription: Decimal(499) / 100
        case .nonRenewingSubscription: Decimal(999) / 100
        }
    }

    private static func storeProduct(_ product: ProductPolicy) -> StoreProduct {
        let price = simulatedPrice(of: product.type)
        return StoreProduct(id: product.id, displayName: product.id, description: "", price: price,
                            displayPrice: "$\(price)", currencyCode: "USD", type: product.type)
    }
}

extension SimulatedDevice: ProductSource {
    /// The account's store's products (``SimulatedAppStore/products(for:)``).
    public func products(for ids: Set<String>) async throws(StepFailure) -> ProductLookup {
        try await store.products(for: ids)
    }
}
