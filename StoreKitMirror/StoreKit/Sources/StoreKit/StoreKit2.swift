// The part of StoreKit 2 that Sources/Runtime/StorekeeperStoreKit/StoreKit2/AppleStoreKit2.swift
// uses, declared as Apple documents it: each declaration names its page under
// https://developer.apple.com/documentation/storekit/. Availability is copied as
// documentation: building on Linux checks no Apple platform's availability.
// Bodies are placeholders: this module is compiled against, never run.
import Foundation

// MARK: Transaction

/// transaction: `struct Transaction` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Sendable {
    /// transaction/id: `let id: UInt64`
    public let id: UInt64
    /// transaction/originalid: `let originalID: UInt64`
    public let originalID: UInt64
    /// transaction/productid: `let productID: String`
    public let productID: String
    /// transaction/producttype: `let productType: Product.ProductType`
    public let productType: Product.ProductType
    /// transaction/purchasedate: `let purchaseDate: Date`
    public let purchaseDate: Date
    /// transaction/signeddate: `let signedDate: Date`
    public let signedDate: Date
    /// transaction/expirationdate: `let expirationDate: Date?`
    public let expirationDate: Date?
    /// transaction/revocationdate: `let revocationDate: Date?`
    public let revocationDate: Date?
    /// transaction/revocationreason-swift.property: `let revocationReason: Transaction.RevocationReason?`
    public let revocationReason: Transaction.RevocationReason?
    /// transaction/revocationpercentage: `@backDeployed(before: iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4)
    /// var revocationPercentage: Decimal? { get }` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
    public var revocationPercentage: Decimal? { nil }
    /// transaction/revocationtype-swift.property: `let revocationType: Transaction.RevocationType?` (iOS 26.4, macOS 26.4,
    /// tvOS 26.4, watchOS 26.4, visionOS 26.4). Declared here as a computed property: a stored one cannot carry a
    /// newer availability than its type; readers see the same `get`.
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public var revocationType: Transaction.RevocationType? { nil }
    /// transaction/isupgraded: `let isUpgraded: Bool`
    public let isUpgraded: Bool
    /// transaction/subscriptionstatus: `@backDeployed(before: iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0)
    /// var subscriptionStatus: Product.SubscriptionInfo.Status? { get async }` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
    public var subscriptionStatus: Product.SubscriptionInfo.Status? { get async { nil } }
    /// transaction/purchasedquantity: `let purchasedQuantity: Int`
    public let purchasedQuantity: Int
    /// transaction/appaccounttoken: `let appAccountToken: UUID?`
    public let appAccountToken: UUID?
    /// transaction/ownershiptype-swift.property: `let ownershipType: Transaction.OwnershipType`
    public let ownershipType: Transaction.OwnershipType

    /// transaction/finish(): `func finish() async`
    public func finish() async {}

    /// transaction/updates: `static var updates: Transaction.Transactions { get }`
    public static var updates: Transaction.Transactions { Transactions() }
    /// transaction/unfinished: `static var unfinished: Transaction.Transactions { get }`
    public static var unfinished: Transaction.Transactions { Transactions() }
    /// transaction/currententitlements: `static var currentEntitlements: Transaction.Transactions { get }`
    public static var currentEntitlements: Transaction.Transactions { Transactions() }

    /// transaction/transactions: `struct Transactions`, an `AsyncSequence` of `VerificationResult<Transaction>`.
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        /// transaction/transactions/asynciterator: `struct AsyncIterator`
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// `mutating func next() async -> Transaction.Transactions.Element?`
            public mutating func next() async -> Element? { nil }
        }
        /// `func makeAsyncIterator() -> Transaction.Transactions.AsyncIterator`
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    /// transaction/revocationreason-swift.struct: `struct RevocationReason`
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// transaction/revocationreason-swift.struct/developerissue: `static let developerIssue: Transaction.RevocationReason`
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// transaction/revocationreason-swift.struct/other: `static let other: Transaction.RevocationReason`
        public static let other = RevocationReason(rawValue: 0)
    }

    /// transaction/revocationtype-swift.struct: `struct RevocationType` (iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4).
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct RevocationType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// transaction/revocationtype-swift.struct/fullrefund: `static let fullRefund: Transaction.RevocationType`
        public static let fullRefund = RevocationType(rawValue: "REFUND_FULL")
        /// transaction/revocationtype-swift.struct/proratedrefund: `static let proratedRefund: Transaction.RevocationType`
        public static let proratedRefund = RevocationType(rawValue: "REFUND_PRORATED")
        /// transaction/revocationtype-swift.struct/familyrevocation: `static let familyRevocation: Transaction.RevocationType`
        public static let familyRevocation = RevocationType(rawValue: "FAMILY_REVOKE")
        /// transaction/revocationtype-swift.struct/assignmentrevocation: `@backDeployed(before: iOS 27.0, …)
        /// static var assignmentRevocation: Transaction.RevocationType { get }`
        public static var assignmentRevocation: RevocationType { RevocationType(rawValue: "ASSIGNMENT_REVOKE") }
    }

    /// transaction/ownershiptype-swift.struct: `struct OwnershipType`
    public struct OwnershipType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// transaction/ownershiptype-swift.struct/purchased: `static let purchased: Transaction.OwnershipType`
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// transaction/ownershiptype-swift.struct/familyshared: `static let familyShared: Transaction.OwnershipType`
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }
}

// MARK: VerificationResult

/// verificationresult: `@frozen enum VerificationResult<SignedType>` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
/// Frozen: a switch over it needs no `@unknown default`.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
@frozen
public enum VerificationResult<SignedType> {
    /// verificationresult/unverified(_:_:): `case unverified(SignedType, VerificationResult<SignedType>.VerificationError)`
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// verificationresult/verified(_:): `case verified(SignedType)`
    case verified(SignedType)

    /// verificationresult/verificationerror: `enum VerificationError` (not frozen: StoreKit may add cases).
    public enum VerificationError: Error, Sendable {
        /// `case revokedCertificate`
        case revokedCertificate
        /// `case invalidCertificateChain`
        case invalidCertificateChain
        /// `case invalidDeviceVerification`
        case invalidDeviceVerification
        /// `case invalidEncoding`
        case invalidEncoding
        /// `case invalidSignature`
        case invalidSignature
        /// `case missingRequiredProperties`
        case missingRequiredProperties
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Sendable where SignedType: Sendable {}

// Apple declares `jwsRepresentation` once per signed type, in constrained
// extensions (each its own page), not on `VerificationResult` itself: a
// `VerificationResult<SomethingElse>` has none.

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
    /// verificationresult/jwsrepresentation-21vgo: `var jwsRepresentation: String { get }` (iOS 15, macOS 12, tvOS 15,
    /// watchOS 8, visionOS 1): "The transaction signed by the App Store, in JWS Compact Serialization format."
    public var jwsRepresentation: String { "" }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// verificationresult/jwsrepresentation-178oj: `var jwsRepresentation: String { get }`, the signed subscription
    /// renewal information (availability as its siblings' pages, verificationresult/payloaddata-abfv: iOS 15, macOS 12,
    /// tvOS 15, watchOS 8, visionOS 1).
    public var jwsRepresentation: String { "" }
}

// MARK: Product

/// product: `struct Product`
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Sendable {
    /// product/id-swift.property: `let id: Product.ID` (`typealias ID = String`)
    public let id: String
    /// product/displayname: `let displayName: String`
    public let displayName: String
    /// product/description: `let description: String`
    public let description: String
    /// product/price: `let price: Decimal`
    public let price: Decimal
    /// product/displayprice: `let displayPrice: String`
    public let displayPrice: String
    /// product/type: `let type: Product.ProductType`
    public let type: Product.ProductType
    /// product/priceformatstyle: `var priceFormatStyle: Decimal.FormatStyle.Currency { get }`
    public var priceFormatStyle: Decimal.FormatStyle.Currency { Decimal.FormatStyle.Currency(code: "USD") }
    /// product/subscription: `let subscription: Product.SubscriptionInfo?`
    public var subscription: Product.SubscriptionInfo? { nil }

    /// product/products(for:): `static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    /// where Identifiers : Collection, Identifiers.Element == String` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1)
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
        where Identifiers: Collection, Identifiers.Element == String { [] }

    /// product/purchase(options:): `@MainActor func purchase(options: Set<Product.PurchaseOption> = []) async throws
    /// -> Product.PurchaseResult` (iOS 15, macOS 12, tvOS 15, watchOS 8; the page lists no visionOS, where the compiler
    /// says "Use @Environment(\.purchase) ... If your app uses UIKit, use purchase(confirmIn:options:)").
    @available(visionOS, unavailable)
    @MainActor
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { .userCancelled }

    /// product/producttype: `struct ProductType`
    public struct ProductType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// product/producttype/consumable: `static let consumable: Product.ProductType`
        public static let consumable = ProductType(rawValue: "Consumable")
        /// product/producttype/nonconsumable: `static let nonConsumable: Product.ProductType`
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// product/producttype/autorenewable: `static let autoRenewable: Product.ProductType`
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
        /// product/producttype/nonrenewable: `static let nonRenewable: Product.ProductType`
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
    }

    /// product/subscriptionoffer: `struct SubscriptionOffer`
    public struct SubscriptionOffer: Sendable {
        /// product/subscriptionoffer/id: `let id: String?` (nil for an introductory offer)
        public var id: String? { nil }
    }

    /// product/subscriptioninfo: `struct SubscriptionInfo`
    public struct SubscriptionInfo: Sendable {
        /// product/subscriptioninfo/winbackoffers: `let winBackOffers: [Product.SubscriptionOffer]`
        /// (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2)
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public var winBackOffers: [Product.SubscriptionOffer] { [] }
        /// product/subscriptioninfo/status-swift.struct: `struct Status` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
        public struct Status: Sendable {
            /// product/subscriptioninfo/status-swift.struct/state: `let state: Product.SubscriptionInfo.RenewalState`
            public let state: Product.SubscriptionInfo.RenewalState
            /// product/subscriptioninfo/status-swift.struct/renewalinfo: `let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>`
            public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
            /// product/subscriptioninfo/status-swift.struct/transaction: `let transaction: VerificationResult<Transaction>`
            public let transaction: VerificationResult<Transaction>
        }

        /// product/subscriptioninfo/renewalstate: `struct RenewalState` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
        public struct RenewalState: RawRepresentable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// product/subscriptioninfo/renewalstate/subscribed: `static let subscribed: Product.SubscriptionInfo.RenewalState`
            public static let subscribed = RenewalState(rawValue: 1)
            /// product/subscriptioninfo/renewalstate/expired: `static let expired: Product.SubscriptionInfo.RenewalState`
            public static let expired = RenewalState(rawValue: 2)
            /// product/subscriptioninfo/renewalstate/inbillingretryperiod: `static let inBillingRetryPeriod: Product.SubscriptionInfo.RenewalState`
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            /// product/subscriptioninfo/renewalstate/ingraceperiod: `static let inGracePeriod: Product.SubscriptionInfo.RenewalState`
            /// ("An auto-renewable subscription in this state is entitled to service.")
            public static let inGracePeriod = RenewalState(rawValue: 4)
            /// product/subscriptioninfo/renewalstate/revoked: `static let revoked: Product.SubscriptionInfo.RenewalState`
            public static let revoked = RenewalState(rawValue: 5)
        }

        /// product/subscriptioninfo/renewalinfo: `struct RenewalInfo` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1).
        public struct RenewalInfo: Sendable {
            /// product/subscriptioninfo/renewalinfo/graceperiodexpirationdate: `let gracePeriodExpirationDate: Date?`
            /// (nil unless the subscription is in a billing grace period).
            public let gracePeriodExpirationDate: Date?
        }
    }

    /// product/purchaseoption: `struct PurchaseOption`
    public struct PurchaseOption: Hashable, Sendable {
        let name: String
        /// product/purchaseoption/quantity(_:): `static func quantity(_ quantity: Int) -> Product.PurchaseOption`
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { PurchaseOption(name: "quantity") }
        /// product/purchaseoption/appaccounttoken(_:): `static func appAccountToken(_ token: UUID) -> Product.PurchaseOption`
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { PurchaseOption(name: "appAccountToken") }
        /// product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:): `static func promotionalOffer(offerID:
        /// String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption` (iOS 15 to 26, macOS 12
        /// to 26, tvOS 15 to 26, watchOS 8 to 26, visionOS 1 to 26)
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            -> Product.PurchaseOption { PurchaseOption(name: "promotionalOffer") }
        /// product/purchaseoption/winbackoffer(_:): `static func winBackOffer(_ offer: Product.SubscriptionOffer) ->
        /// Product.PurchaseOption` (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2)
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption { PurchaseOption(name: "winBackOffer") }
    }

    /// product/purchaseresult: `enum PurchaseResult` (not frozen)
    public enum PurchaseResult: Sendable {
        /// product/purchaseresult/success(_:): `case success(VerificationResult<Transaction>)`
        case success(VerificationResult<Transaction>)
        /// product/purchaseresult/usercancelled: `case userCancelled`
        case userCancelled
        /// product/purchaseresult/pending: `case pending`
        case pending
    }

    /// product/purchaseerror: `enum PurchaseError` (not frozen)
    public enum PurchaseError: Error, Sendable {
        /// `case invalidQuantity`
        case invalidQuantity
        /// `case productUnavailable`
        case productUnavailable
        /// `case purchaseNotAllowed`
        case purchaseNotAllowed
        /// `case ineligibleForOffer`
        case ineligibleForOffer
        /// `case invalidOfferIdentifier`
        case invalidOfferIdentifier
        /// `case invalidOfferPrice`
        case invalidOfferPrice
        /// `case invalidOfferSignature`
        case invalidOfferSignature
        /// `case missingOfferParameters`
        case missingOfferParameters
    }
}

// MARK: StoreKitError, AppStore, PurchaseIntent

/// storekiterror: `enum StoreKitError` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1; not frozen).
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error {
    /// storekiterror/unknown: `case unknown`
    case unknown
    /// storekiterror/usercancelled: `case userCancelled`
    case userCancelled
    /// storekiterror/networkerror(_:): `case networkError(URLError)`
    case networkError(URLError)
    /// storekiterror/systemerror(_:): `case systemError(any Error)`
    case systemError(any Error)
    /// storekiterror/notavailableinstorefront: `case notAvailableInStorefront`
    case notAvailableInStorefront
    /// storekiterror/notentitled: `case notEntitled`
    case notEntitled
    /// storekiterror/unsupported: `case unsupported` (iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4):
    /// newer than the enum. A pattern may match it without a guard (it never builds the value, and before 18.4 no
    /// error is that case); AppleStoreKit2Store.failure(_:) does, and this mirror compiles it so.
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported
}

/// appstore: `enum AppStore`
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    /// appstore/sync(): `static func sync() async throws` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1; not @MainActor)
    public static func sync() async throws {}
}

/// purchaseintent: `struct PurchaseIntent` (iOS 16.4, iPadOS 16.4, Mac Catalyst 16.4, macOS 14.4; the page lists no
/// tvOS, watchOS or visionOS, so neither does this).
@available(iOS 16.4, macOS 14.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent: Sendable {
    /// purchaseintent/product: `let product: Product` (iOS 16.4, macOS 14.4)
    public let product: Product
    /// purchaseintent/offer: `let offer: Product.SubscriptionOffer?` (iOS 18, iPadOS 18, macOS 15)
    @available(iOS 18.0, macOS 15.0, *)
    public var offer: Product.SubscriptionOffer? { nil }

    /// purchaseintent/intents: `static var intents: PurchaseIntent.PurchaseIntents { get }` (iOS 16.4, macOS 14.4)
    public static var intents: PurchaseIntent.PurchaseIntents { PurchaseIntents() }

    /// purchaseintent/purchaseintents: `struct PurchaseIntents`, an `AsyncSequence` of `PurchaseIntent` (iOS 16.4, macOS 14.4).
    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> PurchaseIntent? { nil }
        }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
}
