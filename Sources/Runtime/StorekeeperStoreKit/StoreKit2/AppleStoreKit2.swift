#if canImport(StoreKit)
import Foundation
import StoreKit
import StorekeeperCore
import StorekeeperQueue

// Apple's StoreKit 2 behind the backend's protocols. Compiled on Linux only
// against the mirror in StoreKitMirror (Scripts/check-storekit-mirror),
// never against the real SDK there: docs/storekit-backends.md says what that
// does and does not prove. StoreKit 2 needs iOS 15, macOS 12, tvOS 15,
// watchOS 8: below every minimum the package declares, so only
// PurchaseIntent (iOS 16.4, macOS 14.4; no tvOS, watchOS or visionOS) and
// Transaction.revocationType (iOS 26.4) need a guard;
// StoreKitError.unsupported (iOS 18.4) is only matched, which needs none.
// revocationPercentage (back-deployed before iOS 26.4) and
// subscriptionStatus (back-deployed before iOS 17) are available from iOS 15
// when built with an SDK that declares them.

extension Transaction {
    /// The transaction behind the backend's protocol, with its signed form.
    fileprivate func mirrored(jws: String) -> AppleStoreKit2Transaction {
        AppleStoreKit2Transaction(transaction: self, jwsRepresentation: jws)
    }
}

/// A StoreKit 2 `Transaction` and its JWS, as the backend reads them.
public struct AppleStoreKit2Transaction: StoreKit2Transaction {
    /// StoreKit's transaction.
    public let transaction: Transaction
    /// `VerificationResult.jwsRepresentation`.
    public let jwsRepresentation: String

    /// `Transaction.id`.
    public var id: UInt64 { transaction.id }
    /// `Transaction.originalID`.
    public var originalID: UInt64 { transaction.originalID }
    /// `Transaction.productID`.
    public var productID: String { transaction.productID }
    /// `Transaction.productType`; nil for a type this version does not know.
    public var productType: ProductType? { AppleStoreKit2.productType(transaction.productType) }
    /// `Transaction.purchaseDate`.
    public var purchaseDate: Date { transaction.purchaseDate }
    /// `Transaction.signedDate`.
    public var signedDate: Date { transaction.signedDate }
    /// `Transaction.expirationDate`.
    public var expirationDate: Date? { transaction.expirationDate }
    /// `Transaction.revocationDate`.
    public var revocationDate: Date? { transaction.revocationDate }
    /// `Transaction.revocationReason`: `developerIssue`, or any other reason as `other`.
    public var revocationReason: StoreKit2RevocationReason? {
        transaction.revocationReason.map { $0 == .developerIssue ? .developerIssue : .other }
    }
    /// `Transaction.revocationPercentage`.
    public var revocationPercentage: Decimal? { transaction.revocationPercentage }
    /// `Transaction.revocationType` (iOS 26.4 and later; nil before), a type this version does not know as `other`.
    public var revocationType: StoreKit2RevocationType? {
        // Transaction.revocationType is iOS 26.4 and later; before, nil (the
        // backend then goes by revocationPercentage and ownershipType).
        guard #available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *) else { return nil }
        return transaction.revocationType.map { type in
            switch type {
            case .fullRefund: .fullRefund
            case .proratedRefund: .proratedRefund
            case .familyRevocation: .familyRevocation
            default: .other
            }
        }
    }
    /// `Transaction.isUpgraded`.
    public var isUpgraded: Bool { transaction.isUpgraded }
    /// `Transaction.subscriptionStatus`: its state, and the grace period's end from renewal info that verifies.
    public var subscriptionStatus: StoreKit2SubscriptionStatus? {
        get async {
            guard let status = await transaction.subscriptionStatus else { return nil }
            // Only renewal info that verifies says when a grace period ends:
            // an unverified date would grant service nobody paid for.
            let renewal: Product.SubscriptionInfo.RenewalInfo? = if case .verified(let info) = status.renewalInfo { info } else { nil }
            return StoreKit2SubscriptionStatus(state: AppleStoreKit2.renewalState(status.state),
                                               gracePeriodExpirationDate: renewal?.gracePeriodExpirationDate)
        }
    }
    /// `Transaction.purchasedQuantity`.
    public var purchasedQuantity: Int { transaction.purchasedQuantity }
    /// `Transaction.appAccountToken`.
    public var appAccountToken: UUID? { transaction.appAccountToken }
    /// `Transaction.ownershipType`: `familyShared`, or else `purchased`.
    public var ownershipType: StoreKit2OwnershipType { transaction.ownershipType == .familyShared ? .familyShared : .purchased }
    /// `Transaction.finish()`.
    public func finish() async { await transaction.finish() }
}

/// A StoreKit 2 `Product`, as the backend reads it.
public struct AppleStoreKit2Product: StoreKit2Product {
    /// StoreKit's product.
    public let product: Product

    /// `Product.id`.
    public var id: String { product.id }
    /// `Product.displayName`.
    public var displayName: String { product.displayName }
    /// `Product.description`.
    public var description: String { product.description }
    /// `Product.price`.
    public var price: Decimal { product.price }
    /// `Product.displayPrice`.
    public var displayPrice: String { product.displayPrice }
    /// `Product.priceFormatStyle.currencyCode`.
    public var currencyCode: String { product.priceFormatStyle.currencyCode }
    /// `Product.type`; nil for a type this version does not know.
    public var productType: ProductType? { AppleStoreKit2.productType(product.type) }
}

/// StoreKit 2 itself, for ``StoreKit2Backend``: `Product.purchase(options:)`,
/// `Transaction.updates`, `.unfinished` and `.currentEntitlements`,
/// `AppStore.sync()`, `Product.products(for:)` and `PurchaseIntent.intents`.
///
/// `Product.purchase(options:)` is `@MainActor`: the default purchase runs
/// on the main actor, where StoreKit shows its confirmation sheet. visionOS
/// has no `Product.purchase(options:)` (a purchase needs the scene to confirm
/// in): there, pass `purchase`, such as
/// `{ @MainActor product, options in try await product.purchase(confirmIn: scene, options: options) }`.
public struct AppleStoreKit2Store: StoreKit2Store {
    /// How a product is bought: `Product.purchase(options:)`, or what the app passes.
    public typealias Purchase = @Sendable (Product, Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult

    private let purchaseProduct: Purchase?

    /// StoreKit 2, buying with `purchase` if given, else `Product.purchase(options:)` (which visionOS lacks).
    public init(purchase: Purchase? = nil) {
        #if !os(visionOS)
        // Isolated to the main actor, as Apple declares purchase(options:)
        // (https://developer.apple.com/documentation/storekit/product/purchase(options:)):
        // the backend calls it from any task, and the call hops there.
        purchaseProduct = purchase ?? { @MainActor product, options in try await product.purchase(options: options) }
        #else
        purchaseProduct = purchase
        #endif
    }

    /// Looks the product up with `Product.products(for:)` and buys it with `.quantity`, `.appAccountToken`
    /// and the offer's purchase option; an offer StoreKit cannot apply throws, so nothing is bought at full price.
    public func purchase(productID: String, quantity: Int, appAccountToken: UUID?, offer: PaymentOffer?) async throws(StoreKit2Failure)
        -> StoreKit2PurchaseResult {
        guard let purchaseProduct else {
            throw StoreKit2Failure(.unsupported, message: "no way to purchase here: on visionOS, give AppleStoreKit2Store a purchase closure")
        }
        let found: [Product]
        do {
            found = try await Product.products(for: [productID])
        } catch {
            throw AppleStoreKit2.failure(error)
        }
        guard let product = found.first(where: { $0.id == productID }) else {
            throw StoreKit2Failure(.productUnavailable, message: "the App Store does not sell \(productID)")
        }
        var options: Set<Product.PurchaseOption> = [.quantity(quantity)]
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        if let offer { options.insert(try Self.option(for: offer, of: product)) }
        let result: Product.PurchaseResult
        do {
            result = try await purchaseProduct(product, options)
        } catch {
            throw AppleStoreKit2.failure(error)
        }
        switch result {
        case .success(let verification): return .success(AppleStoreKit2.verification(verification))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        @unknown default: throw StoreKit2Failure(.unknown, message: "a purchase result this version does not know")
        }
    }

    /// The purchase option that applies an offer the queue checked against
    /// the catalog; one StoreKit cannot apply throws, so that nothing is
    /// bought at full price instead.
    private static func option(for offer: PaymentOffer, of product: Product) throws(StoreKit2Failure) -> Product.PurchaseOption {
        switch offer.kind {
        case .promotional:
            guard let signature = offer.signature else {
                throw StoreKit2Failure(.invalidOffer, message: "the promotional offer \(offer.id) has no signature")
            }
            return promotionalOffer(offer.id, signature)
        case .winBack:
            // https://developer.apple.com/documentation/storekit/product/purchaseoption/winbackoffer(_:):
            // iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2; the offer is one of the
            // subscription's `winBackOffers`, found by its `id`.
            guard #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                throw StoreKit2Failure(.unsupported, message: "win-back offers need iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2")
            }
            guard let found = product.subscription?.winBackOffers.first(where: { $0.id == offer.id }) else {
                throw StoreKit2Failure(.invalidOffer, message: "the App Store lists no win-back offer \(offer.id) for \(product.id)")
            }
            return .winBackOffer(found)
        case .offerCode:
            throw StoreKit2Failure(.invalidOffer, message: "\(offer.id) is an offer code: redeemed in the App Store's sheet, not bought")
        }
    }

    /// `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    /// (https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:)):
    /// iOS 15 to 26, where `promotionalOffer(_:compactJWS:)`, signed as a JWS
    /// by the server, succeeds it; deprecated only above every deployment
    /// target the package declares.
    private static func promotionalOffer(_ id: String, _ signature: PaymentOffer.Signature) -> Product.PurchaseOption {
        .promotionalOffer(offerID: id, keyID: signature.keyID, nonce: signature.nonce, signature: signature.signature,
                          timestamp: signature.timestamp)
    }

    /// `Transaction.updates`.
    public func updates() -> AsyncStream<StoreKit2Verification> {
        AppleStoreKit2.stream(Transaction.updates)
    }

    /// `Transaction.unfinished`.
    public func unfinished() async -> [StoreKit2Verification] {
        await AppleStoreKit2.collect(Transaction.unfinished)
    }

    /// `Transaction.currentEntitlements`.
    public func currentEntitlements() async -> [StoreKit2Verification] {
        await AppleStoreKit2.collect(Transaction.currentEntitlements)
    }

    /// `AppStore.sync()`.
    public func sync() async throws(StoreKit2Failure) {
        do {
            try await AppStore.sync()
        } catch {
            throw AppleStoreKit2.failure(error)
        }
    }

    /// `Product.products(for:)`.
    public func products(for ids: Set<String>) async throws(StoreKit2Failure) -> [any StoreKit2Product] {
        do {
            return try await Product.products(for: ids).map { AppleStoreKit2Product(product: $0) }
        } catch {
            throw AppleStoreKit2.failure(error)
        }
    }

    /// `PurchaseIntent.intents` (iOS 16.4, macOS 14.4); elsewhere a stream that ends at once.
    public func purchaseIntents() -> AsyncStream<StoreKit2PurchaseIntent> {
        // PurchaseIntent is iOS 16.4 and macOS 14.4 only: Apple's page lists
        // no tvOS, watchOS or visionOS
        // (https://developer.apple.com/documentation/storekit/purchaseintent).
        // Elsewhere no intent ever arrives: the stream ends at once.
        #if !os(tvOS) && !os(watchOS) && !os(visionOS)
        if #available(iOS 16.4, macOS 14.4, *) {
            return AsyncStream { continuation in
                let task = Task {
                    for await intent in PurchaseIntent.intents {
                        continuation.yield(StoreKit2PurchaseIntent(productID: intent.product.id, offer: Self.offer(of: intent)))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        #endif
        return AsyncStream { $0.finish() }
    }

    #if !os(tvOS) && !os(watchOS) && !os(visionOS)
    /// The win-back offer the customer redeemed with a purchase intent
    /// (`offer`, iOS 18 and macOS 15: "populates this value if the customer
    /// redeems a winBack offer type outside of your app",
    /// https://developer.apple.com/documentation/storekit/purchaseintent/offer), by its id.
    @available(iOS 16.4, macOS 14.4, *)
    private static func offer(of intent: PurchaseIntent) -> PaymentOffer? {
        guard #available(iOS 18.0, macOS 15.0, *), let id = intent.offer?.id else { return nil }
        return .winBack(id)
    }
    #endif
}

/// The conversions from StoreKit's types to the backend's.
enum AppleStoreKit2 {
    static func productType(_ type: Product.ProductType) -> ProductType? {
        switch type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewableSubscription
        case .nonRenewable: .nonRenewingSubscription
        default: nil
        }
    }

    static func renewalState(_ state: Product.SubscriptionInfo.RenewalState) -> StoreKit2RenewalState {
        switch state {
        case .subscribed: .subscribed
        case .expired: .expired
        case .inBillingRetryPeriod: .inBillingRetryPeriod
        case .inGracePeriod: .inGracePeriod
        case .revoked: .revoked
        default: .other
        }
    }

    static func verification(_ result: VerificationResult<Transaction>) -> StoreKit2Verification {
        switch result {
        case .verified(let transaction):
            .verified(transaction.mirrored(jws: result.jwsRepresentation))
        case .unverified(let transaction, let error):
            .unverified(transaction.mirrored(jws: result.jwsRepresentation), reason: String(describing: error))
        }
    }

    /// Every element of a finite sequence (`unfinished`, `currentEntitlements`).
    static func collect(_ transactions: Transaction.Transactions) async -> [StoreKit2Verification] {
        var all: [StoreKit2Verification] = []
        for await result in transactions { all.append(verification(result)) }
        return all
    }

    /// An endless sequence (`updates`) as a stream, iterated by a task that
    /// ends when the stream's consumer goes away.
    static func stream(_ transactions: Transaction.Transactions) -> AsyncStream<StoreKit2Verification> {
        AsyncStream { continuation in
            let task = Task {
                for await result in transactions { continuation.yield(verification(result)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// StoreKit's error, named by its case.
    static func failure(_ error: any Error) -> StoreKit2Failure {
        let message = String(describing: error)
        if let error = error as? StoreKitError {
            switch error {
            case .userCancelled: return StoreKit2Failure(.userCancelled, message: message)
            case .networkError: return StoreKit2Failure(.networkError, message: message)
            case .systemError: return StoreKit2Failure(.systemError, message: message)
            case .notAvailableInStorefront: return StoreKit2Failure(.notAvailableInStorefront, message: message)
            case .notEntitled: return StoreKit2Failure(.notEntitled, message: message)
            // StoreKitError.unsupported is iOS 18.4, macOS 15.4, tvOS 18.4,
            // watchOS 11.4, visionOS 2.4
            // (https://developer.apple.com/documentation/storekit/storekiterror/unsupported).
            // Matching it needs no guard: a pattern never builds the value,
            // and before 18.4 no error is that case (the compiler does not
            // diagnose potentially unavailable cases in patterns,
            // swiftlang/swift#77254). Leaving it to `@unknown default`
            // instead makes the switch non-exhaustive, a warning.
            case .unsupported: return StoreKit2Failure(.unsupported, message: message)
            case .unknown: return StoreKit2Failure(.unknown, message: message)
            @unknown default: return StoreKit2Failure(.unknown, message: message)
            }
        }
        if let error = error as? Product.PurchaseError {
            switch error {
            case .invalidQuantity: return StoreKit2Failure(.invalidQuantity, message: message)
            case .productUnavailable: return StoreKit2Failure(.productUnavailable, message: message)
            case .purchaseNotAllowed: return StoreKit2Failure(.purchaseNotAllowed, message: message)
            case .ineligibleForOffer, .invalidOfferIdentifier, .invalidOfferPrice, .invalidOfferSignature, .missingOfferParameters:
                return StoreKit2Failure(.invalidOffer, message: message)
            @unknown default: return StoreKit2Failure(.unknown, message: message)
            }
        }
        if error is URLError { return StoreKit2Failure(.networkError, message: message) }
        return StoreKit2Failure(.unknown, message: message)
    }
}
#endif
