import StorekeeperCore
public import StorekeeperRuntime
public import StorekeeperStoreModel
import StorekeeperTestChain

/// What a device on StoreKit 1 can know of the model's entitlements for its account: the model's, less what
/// StoreKit 1 never tells a device (docs/device-lives.md, "StoreKit 1", each projection with Apple's page).
///
/// - **No grace period.** The app receipt's in-app purchase fields carry no billing grace period (Receipt
///   Fields: https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html);
///   `grace_period_expires_date` exists only in `pending_renewal_info` of the App Store's answer to a server
///   (https://developer.apple.com/documentation/appstorereceipts/grace_period_expires_date). A subscription the
///   model lists `grace-period` ends on the device at its period's `expires_date`: its entry and, unless
///   another subscription of the account keeps it, its product and the features only it unlocks are left out.
/// - **No consumable refund.** `cancellation_date` "is present only if the refund or revocation was for a
///   non-consumable product, an auto-renewable subscription, or a non-renewing subscription"
///   (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms), a finished consumable
///   leaves the receipt, and `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)` names Family Sharing
///   purchases, which consumables never are. What a refund of a consumable took back stays on the device.
/// - **No refund share.** The receipt gives a cancellation date, no `revocationPercentage`
///   (https://developer.apple.com/documentation/appstoreservernotifications/revocationpercentage is a server
///   notification's): a device takes back all of a canceled purchase's grants, the model its share.
///
/// Spends follow: the device accepts a spend its own balance covers. Where its verdict differs from the
/// model's (a refund the device never saw; that refund reversed after the device spent what it had taken),
/// the difference is the driver's to keep (`spendDifference`).
public enum StoreKit1Projection {
    /// The model's entitlements of `account` (`modelExpected`, what the model expects at a checkpoint) as
    /// StoreKit 1 lets its device know them; `model` holds the transactions (their newest versions);
    /// `spendDifference` is by how much the device's accepted spends exceed the model's, by balance.
    public static func expected(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, policy: CompiledPolicy,
                                spendDifference: [String: Int] = [:]) -> ExpectedEntitlements {
        var expected = modelExpected
        // No grace period.
        let inGrace = expected.subscriptions.filter { $0.status == "grace-period" }
        if !inGrace.isEmpty {
            expected.subscriptions.removeAll { $0.status == "grace-period" }
            let stillActive = Set(expected.subscriptions.filter { $0.status == "active" }.map(\.product))
            let lapsed = Set(inGrace.map(\.product)).subtracting(stillActive)
            expected.products.removeAll { lapsed.contains($0) }
            var features = Set<String>()
            for product in expected.products {
                if let handle = policy.product(id: product) { features.formUnion(policy.product(handle).unlocks) }
            }
            expected.features = features.sorted()
        }
        // Balances: the device's grants less what it saw taken back, less its own spends.
        let net = deviceNet(modelExpected, of: account, in: model, policy: policy, spendDifference: spendDifference)
        for balance in policy.balances {
            let value = net[balance, default: 0]
            expected.balances[balance] = max(0, value)
            expected.owed[balance] = value < 0 ? -value : nil
        }
        return expected
    }

    /// Each balance's net as the device keeps it: the model's net (`modelExpected`'s balances less what it
    /// owes), with a consumable's refund given back (never seen), another canceled purchase's grants taken in
    /// full (no share), and by how much the device's spends exceed the model's.
    public static func deviceNet(_ modelExpected: ExpectedEntitlements, of account: String, in model: StoreModel, policy: CompiledPolicy,
                                 spendDifference: [String: Int] = [:]) -> [String: Int] {
        let expected = modelExpected
        var net: [String: Int] = [:]
        for balance in policy.balances { net[balance] = (expected.balances[balance] ?? 0) - (expected.owed[balance] ?? 0) }
        for id in model.world.transactionIDs(heldBy: account) {
            guard let payload = model.world.transactions[id], payload.revocationDate != nil, payload.ownership == .purchased,
                  let handle = policy.product(id: payload.productID) else { continue }
            let product = policy.product(handle)
            for grant in product.grants {
                let amount = grant.amount * payload.quantity
                let takenBack = (amount * (payload.revocationPercentage ?? 100_000) + 50_000) / 100_000
                if product.type == .consumable {
                    net[grant.balance, default: 0] += takenBack
                } else {
                    net[grant.balance, default: 0] -= amount - takenBack
                }
            }
        }
        for (balance, amount) in spendDifference { net[balance, default: 0] -= amount }
        return net
    }
}
