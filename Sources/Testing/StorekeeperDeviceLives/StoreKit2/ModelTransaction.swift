import Foundation
import StorekeeperCore
import StorekeeperStoreKit
import StorekeeperTestChain

/// A transaction of the App Store model as StoreKit 2 hands it to the app: the signed payload Apple sent to
/// the device (`DeviceTransaction`), read field by field as `Transaction` exposes it
/// (https://developer.apple.com/documentation/storekit/transaction). `finish()` and `subscriptionStatus`
/// go to the ``ModelStoreKit2Device`` that gave it, as StoreKit's do to the device's StoreKit.
struct ModelTransaction: StoreKit2Transaction {
    /// What the App Store signed.
    let payload: TransactionPayload
    /// The JWS of ``payload``.
    let jwsRepresentation: String
    /// The numeric id (`Transaction.id` is a `UInt64`; the model's ids are decimal, as Apple's).
    let id: UInt64
    /// The numeric original id.
    let originalID: UInt64
    /// The device whose StoreKit gave it.
    let device: ModelStoreKit2Device

    /// The transaction `signed` holds, or nil when its ids are not decimal numbers (never from the model).
    init?(payload: TransactionPayload, signed: String, device: ModelStoreKit2Device) {
        guard let id = UInt64(payload.transactionID), let originalID = UInt64(payload.originalTransactionID) else { return nil }
        self.payload = payload
        jwsRepresentation = signed
        self.id = id
        self.originalID = originalID
        self.device = device
    }

    var productID: String { payload.productID }

    var productType: ProductType? {
        switch payload.type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewableSubscription: .autoRenewableSubscription
        case .nonRenewingSubscription: .nonRenewingSubscription
        }
    }

    var purchaseDate: Date { payload.purchaseDate }
    var signedDate: Date { payload.signedDate }
    /// `expiresDate`: "The date the subscription expires or renews" (auto-renewable subscriptions only:
    /// https://developer.apple.com/documentation/storekit/transaction/expirationdate).
    var expirationDate: Date? { payload.expiresDate }
    var revocationDate: Date? { payload.revocationDate }

    /// `revocationReason`: 1 is `.developerIssue`, 0 `.other`
    /// (https://developer.apple.com/documentation/appstoreserverapi/revocationreason).
    var revocationReason: StoreKit2RevocationReason? {
        payload.revocationReason.map { $0 == .appIssue ? .developerIssue : .other }
    }

    /// The payload's milliunits as StoreKit's percentage (`revocationPercentage`, 0.0 to 100.0:
    /// https://developer.apple.com/documentation/storekit/transaction/revocationpercentage): 33333 is 33.333.
    /// Apple writes it for a prorated refund; a full refund has none (the backend then takes all of it).
    var revocationPercentage: Decimal? {
        guard payload.revocationDate != nil, let milliunits = payload.revocationPercentage else { return nil }
        return Decimal(milliunits) / 1000
    }

    /// `revocationType` (https://developer.apple.com/documentation/appstoreserverapi/revocationtype):
    /// the device runs a system that has it (iOS 26.4).
    var revocationType: StoreKit2RevocationType? {
        guard payload.revocationDate != nil, let type = payload.revocationType else { return nil }
        switch type {
        case .refundFull: return .fullRefund
        case .refundProrated: return .proratedRefund
        case .familyRevoke: return .familyRevocation
        }
    }

    var isUpgraded: Bool { payload.isUpgraded ?? false }

    /// What the device's StoreKit says of the subscription now, from the model's world; nil for a product that
    /// is not an auto-renewable subscription (https://developer.apple.com/documentation/storekit/transaction/subscriptionstatus).
    var subscriptionStatus: StoreKit2SubscriptionStatus? {
        get async {
            guard payload.type == .autoRenewableSubscription else { return nil }
            return await device.subscriptionStatus(originalTransactionID: payload.originalTransactionID)
        }
    }

    var purchasedQuantity: Int { payload.quantity }
    var appAccountToken: UUID? { payload.appAccountToken }
    var ownershipType: StoreKit2OwnershipType { payload.ownership == .familyShared ? .familyShared : .purchased }

    /// `Transaction.finish()`: the device's StoreKit stops giving it as unfinished.
    func finish() async { await device.finish(self) }
}
