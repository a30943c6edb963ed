public import Foundation
public import StorekeeperCore

/// The part of StoreKit 2's `Product` the backend reads to answer product lookups.
public protocol StoreKit2Product: Sendable {
    /// The product identifier (`Product.id`).
    var id: String { get }
    /// Its localized name (`Product.displayName`).
    var displayName: String { get }
    /// Its localized description (`Product.description`).
    var description: String { get }
    /// Its price (`Product.price`).
    var price: Decimal { get }
    /// Its price formatted for the user (`Product.displayPrice`).
    var displayPrice: String { get }
    /// The ISO 4217 code of the price's currency (`Product.priceFormatStyle.currencyCode`).
    var currencyCode: String { get }
    /// Its type, or nil for a type this version does not know (`Product.type`).
    var productType: ProductType? { get }
}
