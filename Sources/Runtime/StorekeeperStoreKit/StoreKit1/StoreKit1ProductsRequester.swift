public import Foundation
public import StorekeeperRuntime

/// Loads products from the App Store: `SKProductsRequest` and its delegate's
/// `SKProductsResponse`.
public protocol StoreKit1ProductsRequester: Sendable {
    /// Asks for products by identifier. Throws a transient `StepFailure`
    /// when the request fails (`request(_:didFailWithError:)`).
    func products(for ids: Set<String>) async throws(StepFailure) -> StoreKit1ProductsResponse
}

/// `SKProductsResponse`: the products found and the identifiers the App Store does not know.
public struct StoreKit1ProductsResponse: Sendable, Hashable {
    /// `products`.
    public var products: [StoreKit1Product]
    /// `invalidProductIdentifiers`.
    public var invalidProductIdentifiers: [String]

    /// Describes a response.
    public init(products: [StoreKit1Product], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}

/// What ``StoreKit1Backend`` reads of an `SKProduct`. StoreKit 1 does not say
/// whether a product is consumable: its type comes from the catalog.
public struct StoreKit1Product: Sendable, Hashable {
    /// `productIdentifier`.
    public var id: String
    /// `localizedTitle`.
    public var localizedTitle: String
    /// `localizedDescription`.
    public var localizedDescription: String
    /// `price`.
    public var price: Decimal
    /// `priceLocale`: the locale whose currency and format the price is in.
    public var priceLocale: Locale

    /// Describes a product.
    public init(id: String, localizedTitle: String, localizedDescription: String, price: Decimal, priceLocale: Locale) {
        self.id = id
        self.localizedTitle = localizedTitle
        self.localizedDescription = localizedDescription
        self.price = price
        self.priceLocale = priceLocale
    }
}
