public import Foundation
public import StorekeeperCore
public import StorekeeperQueue

/// What the simulated store knows of a transaction it delivers, for a
/// ``TransactionSigner`` to state in a signed payload (the fields of Apple's
/// `JWSTransactionDecodedPayload`).
public struct SignedTransactionFacts: Sendable, Hashable {
    /// Why the transaction exists.
    public enum Kind: String, Sendable, Hashable {
        /// A payment (the payload's `transactionReason` is `PURCHASE`).
        case purchase
        /// An auto-renewable subscription's new period (`RENEWAL`).
        case renewal
        /// A restore of a completed purchase: the simulated store gives it an
        /// identifier of its own, and its original is the purchase it restores
        /// (`PURCHASE`).
        case restore
    }

    /// A refund or revocation of the transaction (or of the purchase it refers to).
    public struct Revocation: Sendable, Hashable {
        /// When the store revoked it.
        public var date: Date
        /// A refund, or family sharing stopped.
        public var reason: StoreRevocation.Reason

        /// Describes a revocation.
        package init(date: Date, reason: StoreRevocation.Reason) {
            self.date = date
            self.reason = reason
        }
    }

    /// The transaction's identifier (the one `TransactionInfo.id` carries).
    public var transactionID: String
    /// The first purchase it belongs to: itself for a purchase, the first
    /// purchase for a renewal or a restore.
    public var originalTransactionID: String
    /// The product.
    public var productID: String
    /// The product's type.
    public var productType: ProductType
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroup: String?
    /// A purchase, a renewal or a restore.
    public var kind: Kind
    /// When it was bought (a renewal: when its period starts; a restore: when the original was bought).
    public var purchaseDate: Date
    /// When the original purchase was made.
    public var originalPurchaseDate: Date
    /// When the subscription period it pays for ends.
    public var expirationDate: Date?
    /// When the store signs it (the simulated clock's time of delivery).
    public var signedDate: Date
    /// How many were bought.
    public var quantity: Int
    /// The app's name for the user (the payment's `applicationUsername`).
    public var applicationUsername: String?
    /// StoreKit 2's `appAccountToken`: the UUID derived from the user
    /// (docs/server-contract.md), as ``TransactionSigning/appAccountToken``
    /// derives it; nil without a user.
    public var appAccountToken: UUID?
    /// Its refund or revocation, if it was revoked.
    public var revocation: Revocation?
    /// The environment the payload states.
    public var environment: AppStoreEnvironment
    /// The app's bundle identifier the payload states.
    public var bundleID: String

    /// Describes a transaction to sign.
    package init(transactionID: String, originalTransactionID: String, productID: String, productType: ProductType,
                subscriptionGroup: String? = nil, kind: Kind = .purchase, purchaseDate: Date, originalPurchaseDate: Date,
                expirationDate: Date? = nil, signedDate: Date, quantity: Int = 1, applicationUsername: String? = nil,
                appAccountToken: UUID? = nil, revocation: Revocation? = nil, environment: AppStoreEnvironment, bundleID: String) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.productType = productType
        self.subscriptionGroup = subscriptionGroup
        self.kind = kind
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expirationDate = expirationDate
        self.signedDate = signedDate
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.appAccountToken = appAccountToken
        self.revocation = revocation
        self.environment = environment
        self.bundleID = bundleID
    }
}
