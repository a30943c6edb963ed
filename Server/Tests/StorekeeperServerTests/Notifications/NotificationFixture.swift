import Foundation
import StorekeeperJSON
import StorekeeperRuntime
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperSimulatedStore
import StorekeeperTestChain
import StorekeeperVerification

/// The test app's App Store Server Notifications (the products and policy of ``ServerHarness``),
/// signed by the test chain as the App Store signs them, and the processor of its sandbox route,
/// which trusts that chain's root.
struct NotificationFixture {
    static let bundleID = ServerHarness.bundleID
    /// An auto-renewable subscription.
    static let monthly = ServerHarness.monthly
    /// A consumable granting 100 coins each.
    static let coins = ServerHarness.coins
    /// A non-consumable.
    static let lifetime = ServerHarness.pro
    /// Every payload's dates start here.
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let month: TimeInterval = 2_678_400

    let signer: SignedDataSigner
    let verifier: SignedDataVerifier
    let policy: CompiledPolicy

    init() throws {
        let chain = try ServerHarness.chain()
        signer = SignedDataSigner(chain: chain)
        verifier = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: Self.bundleID, environment: .sandbox)
        policy = try ServerHarness.policy()
    }

    /// The sandbox route's processor on `storage`, its clock at `now`.
    func processor(_ storage: any LedgerStorage, now: Date = start) -> NotificationProcessor {
        NotificationProcessor(storage: storage, policy: policy, verifier: verifier, now: { now })
    }

    /// A signed transaction; `extra` members are appended to the payload (`revocationPercentage`, ...).
    func transaction(
        _ id: String, original: String? = nil, product: String, token: UUID? = nil, signed: Date, purchased: Date? = nil,
        expires: Date? = nil, revoked: Date? = nil, quantity: Int = 1, ownership: TransactionPayload.Ownership = .purchased,
        extra: [(key: String, value: JSONValue)] = []
    ) throws -> String {
        let type: AppStoreProductType = switch product {
        case Self.monthly, ServerHarness.basic: .autoRenewableSubscription
        case ServerHarness.pass: .nonRenewingSubscription
        case Self.coins: .consumable
        default: .nonConsumable
        }
        let payload = TransactionPayload(
            transactionID: id, originalTransactionID: original, bundleID: Self.bundleID, productID: product,
            purchaseDate: purchased ?? signed, expiresDate: expires, quantity: quantity, type: type, appAccountToken: token,
            ownership: ownership, signedDate: signed,
            revocationReason: revoked == nil ? nil : .otherReason, revocationDate: revoked, environment: .sandbox)
        guard case .object(let members) = payload.json else { return try signer.sign(payload.json) }
        return try signer.sign(.object(members + extra))
    }

    /// Signed renewal info of the subscription `original`.
    func renewal(
        original: String, product: String = Self.monthly, signed: Date, gracePeriodEnds: Date? = nil, billingRetry: Bool? = nil
    ) throws -> String {
        try signer.sign(
            RenewalInfoPayload(
                originalTransactionID: original, productID: product, isInBillingRetryPeriod: billingRetry,
                gracePeriodExpiresDate: gracePeriodEnds, signedDate: signed, environment: .sandbox
            ).json)
    }

    /// The signed payload of a notification.
    func notification(
        _ type: NotificationPayload.NotificationType, _ subtype: NotificationPayload.Subtype? = nil, uuid: UUID = UUID(),
        transaction: String? = nil, renewal: String? = nil, status: NotificationPayload.SubscriptionStatus? = nil, signed: Date,
        environment: AppStoreEnvironment = .sandbox
    ) throws -> String {
        try signer.sign(
            NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: uuid, bundleID: Self.bundleID, environment: environment,
                signedTransactionInfo: transaction, signedRenewalInfo: renewal, status: status, signedDate: signed
            ).json)
    }

    /// The body the App Store posts.
    static func body(_ signedPayload: String) -> [UInt8] {
        Array(JSONWriter(indentation: nil).serialize(["signedPayload": .string(signedPayload)]).utf8)
    }
}

extension NotificationProcessor {
    /// Receives a signed payload as the App Store posts it.
    func receive(_ signedPayload: String) async -> NotificationAnswer {
        await receive(body: NotificationFixture.body(signedPayload))
    }
}
