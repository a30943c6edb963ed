public import Foundation
public import StorekeeperCore

/// A product as the store sells it to this user: its localized name and
/// price, as StoreKit's `SKProduct` and `Product` give them. The catalog
/// declares what a product is; the store says what it costs here and now.
public struct StoreProduct: Sendable, Hashable {
    /// The product identifier (the catalog's id).
    public var id: String
    /// The product's name, in the user's language.
    public var displayName: String
    /// The product's description, in the user's language.
    public var description: String
    /// The price, in ``currencyCode``.
    public var price: Decimal
    /// The price as the store formats it for the user (`"$0.99"`, `"0,99 €"`).
    public var displayPrice: String
    /// The ISO 4217 code of the price's currency (`"USD"`).
    public var currencyCode: String
    /// The product's type, as the store reports it.
    public var type: ProductType

    /// Describes a product.
    public init(id: String, displayName: String, description: String, price: Decimal, displayPrice: String,
                currencyCode: String, type: ProductType) {
        self.id = id
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.currencyCode = currencyCode
        self.type = type
    }
}
