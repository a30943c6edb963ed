import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// Products and prices through `SKProductsRequest`.
extension StoreKit1Backend: ProductSource {
    /// Asks the App Store for the products the catalog declares among `ids`.
    /// `SKProduct` does not say whether a product is consumable, so the
    /// type comes from the catalog: an id the catalog does not declare is
    /// not asked for, and is answered as unknown, like an id the App Store
    /// does not know (`invalidProductIdentifiers`).
    public func products(for ids: Set<String>) async throws(StepFailure) -> ProductLookup {
        let declared = ids.filter { policy.product(id: $0) != nil }
        var unknown = ids.subtracting(declared)
        guard let productsRequester, !declared.isEmpty else { return ProductLookup(products: [], unknownIDs: Array(ids)) }
        let response = try await productsRequester.products(for: declared)
        unknown.formUnion(response.invalidProductIdentifiers)
        var found: [StoreProduct] = []
        for product in response.products {
            guard declared.contains(product.id), let handle = policy.product(id: product.id) else { continue }
            found.append(StoreProduct(id: product.id, displayName: product.localizedTitle, description: product.localizedDescription,
                                      price: product.price, displayPrice: Self.displayPrice(product.price, in: product.priceLocale),
                                      currencyCode: product.priceLocale.currency?.identifier ?? "", type: policy.product(handle).type))
        }
        // An id asked for that the response neither lists nor calls invalid is not sold either.
        unknown.formUnion(declared.subtracting(found.map(\.id)))
        return ProductLookup(products: found, unknownIDs: Array(unknown))
    }

    /// A price as the user's store writes it: the currency style of `SKProduct.priceLocale`.
    static func displayPrice(_ price: Decimal, in locale: Locale) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = locale
        return formatter.string(from: price as NSDecimalNumber) ?? "\(price)"
    }
}

/// The app receipt.
extension StoreKit1Backend {
    /// The in-app purchases the app receipt lists (the `receipt` persistence
    /// strategy's record), read from the receipt's bytes on the device by
    /// ``AppReceiptPayload``. Read, not verified: see docs/storekit-backends.md (StoreKit 1).
    /// No receipt, or one that cannot be read, lists nothing. Canceled
    /// purchases are left out, and each is sent to the queue as revoked; so
    /// are subscription periods a later one superseded
    /// (``AppReceiptPayload/currentEntries``).
    public func receiptEntries() async -> [ReceiptEntry] {
        readReceipt()?.currentEntries ?? []
    }

    /// Asks the App Store for a new receipt (`SKReceiptRefreshRequest`), for
    /// a Restore Purchases button: it may ask the user to sign in, so the
    /// backend never calls it by itself (the guide: never restore at launch),
    /// but for a revocation StoreKit reported
    /// (``didRevokeEntitlements(forProductIdentifiers:)``). Then call the
    /// queue's `refreshEntitlements()`. The canceled purchases the new
    /// receipt lists are sent to the queue as revoked, and those it lists
    /// again without a cancellation as reinstated (a refund reversed).
    public func refreshReceipt() async throws(StepFailure) {
        try await receipt.refresh()
        _ = readReceipt()
    }

    /// The receipt on the device, read; its canceled purchases not sent yet
    /// are sent to the queue as revoked. Nil when there is none or it cannot be read.
    func readReceipt() -> AppReceiptPayload? {
        guard let bytes = receipt.receiptBytes(), let payload = try? AppReceiptPayload(receipt: bytes) else { return nil }
        withState { state in
            let changes = state.receiptChanges(in: payload)
            if !changes.isEmpty { state.deliver(changes) }
        }
        return payload
    }
}
