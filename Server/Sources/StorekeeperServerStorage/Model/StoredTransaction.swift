/// A transaction the server verified, kept once by its id for the user it
/// belongs to (its newest signed version), or, while no user holds it, as a
/// notification told it (``LedgerEffect/toldTransaction(_:)``, `user` empty).
/// Dates are seconds since 1970-01-01T00:00:00Z.
public struct StoredTransaction: Sendable, Equatable {
    /// The App Store's id of the transaction; the key.
    public var transactionID: String
    /// The user the transaction belongs to.
    public var user: String
    /// The first transaction of its subscription (itself for other products).
    public var originalTransactionID: String
    /// The product bought.
    public var productID: String
    /// `Sandbox`, `Production` or `Xcode`.
    public var environment: String
    /// How many were bought (consumables); 1 otherwise.
    public var quantity: Int
    /// When it was bought.
    public var purchaseDate: Double
    /// When a subscription period ends; nil when it does not.
    public var expirationDate: Double?
    /// When the App Store refunded or revoked it; nil while it stands.
    public var revocationDate: Double?
    /// How much of it a refund took back, in thousandths of a percent (Apple's
    /// `revocationPercentage`: `25_000` is a quarter); nil with a revocation date is all of it.
    public var revocationPercentage: Int?
    /// Whether the user upgraded to another subscription of the group during this
    /// period (Apple's `isUpgraded`): the period no longer counts.
    public var isUpgraded: Bool
    /// How the user has it: ``purchased`` or ``familyShared`` (Apple's `inAppOwnershipType`).
    public var ownership: String
    /// The `appAccountToken` the transaction carries, lowercased; nil when it carries none.
    public var appAccountToken: String?
    /// When the App Store signed this version: a newer one replaces an older one.
    public var signedDate: Double
    /// The signed payload as received (the JWS), for audits.
    public var payload: String

    /// Apple's `inAppOwnershipType` of a purchase the user made.
    public static let purchased = "PURCHASED"
    /// Apple's `inAppOwnershipType` of a family member's copy of a purchase.
    public static let familyShared = "FAMILY_SHARED"

    /// A transaction as verified.
    public init(
        transactionID: String, user: String, originalTransactionID: String, productID: String, environment: String,
        quantity: Int, purchaseDate: Double, expirationDate: Double? = nil, revocationDate: Double? = nil,
        revocationPercentage: Int? = nil, isUpgraded: Bool = false, ownership: String = StoredTransaction.purchased,
        appAccountToken: String? = nil, signedDate: Double, payload: String
    ) {
        self.transactionID = transactionID
        self.user = user
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.environment = environment
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.revocationPercentage = revocationPercentage
        self.isUpgraded = isUpgraded
        self.ownership = ownership
        self.appAccountToken = appAccountToken
        self.signedDate = signedDate
        self.payload = payload
    }
}

/// What keeping a verified transaction did.
public enum TransactionWrite: Sendable, Equatable {
    /// The transaction was new.
    case inserted
    /// A newer signed version replaced the one kept.
    case updated
    /// The kept version is as new or newer: nothing changed (a repeated post).
    case unchanged
    /// The id is kept for another user: nothing changed; the caller applies its restore policy.
    case ownedByAnotherUser
}
