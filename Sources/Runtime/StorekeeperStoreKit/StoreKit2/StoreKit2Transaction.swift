import Foundation
import StorekeeperCore

/// The part of StoreKit 2's `Transaction` the StoreKit 2 backend reads:
/// Apple's type conforms where StoreKit exists (AppleStoreKit2.swift), a
/// fake does in tests.
public protocol StoreKit2Transaction: Sendable {
    /// The App Store's identifier of the transaction (`Transaction.id`).
    var id: UInt64 { get }
    /// The identifier of the original purchase: the same as ``id`` for a
    /// first purchase, the first transaction for a subscription's renewals
    /// and for restores (`Transaction.originalID`).
    var originalID: UInt64 { get }
    /// The product bought (`Transaction.productID`).
    var productID: String { get }
    /// The product's type, or nil for a type this version does not know (`Transaction.productType`).
    var productType: ProductType? { get }
    /// When it was bought (`Transaction.purchaseDate`).
    var purchaseDate: Date { get }
    /// When the App Store signed this version of the transaction (`Transaction.signedDate`):
    /// the later of two versions of one transaction is the one that counts.
    var signedDate: Date { get }
    /// When a subscription period it pays for ends (`Transaction.expirationDate`).
    var expirationDate: Date? { get }
    /// When the App Store refunded it or took it back from the family (`Transaction.revocationDate`).
    var revocationDate: Date? { get }
    /// Why it was refunded, when the App Store says (`Transaction.revocationReason`).
    var revocationReason: StoreKit2RevocationReason? { get }
    /// How many were bought (`Transaction.purchasedQuantity`).
    var purchasedQuantity: Int { get }
    /// The token the purchase carried (`Transaction.appAccountToken`): see ``AppAccountToken``.
    var appAccountToken: UUID? { get }
    /// Whether the user bought it or a family member shares it (`Transaction.ownershipType`).
    var ownershipType: StoreKit2OwnershipType { get }
    /// The transaction as the App Store signed it: a JWS in compact
    /// serialization (`VerificationResult.jwsRepresentation`).
    var jwsRepresentation: String { get }
    /// Tells the App Store the app is done with it (`Transaction.finish()`).
    func finish() async
}

/// Why the App Store refunded a transaction (`Transaction.RevocationReason`).
public enum StoreKit2RevocationReason: Sendable, Hashable {
    /// Refunded for a problem in the app (`.developerIssue`).
    case developerIssue
    /// Refunded for another reason (`.other`), or one this version does not know.
    case other
}

/// Who owns a transaction (`Transaction.OwnershipType`).
public enum StoreKit2OwnershipType: Sendable, Hashable {
    /// The user bought it (`.purchased`).
    case purchased
    /// A family member bought it and shares it with the user (`.familyShared`).
    case familyShared
}
