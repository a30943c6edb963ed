import Foundation

/// The purchases StoreKit 2 left pending, oldest first, and the rule that
/// matches a transaction arriving on its own (an Ask to Buy approval) to one.
///
/// StoreKit 2 gives an approval nothing that names its request: a pending
/// purchase returns no transaction ("If the transaction completes, it's
/// available through the Transaction.updates sequence":
/// https://developer.apple.com/documentation/storekit/product/purchaseresult/pending).
/// What the approval carries of the request is what the request asked for:
/// its product, its quantity (`purchasedQuantity`) and the `appAccountToken`
/// the purchase was made with. So a request is completed only by a
/// transaction equal to it in all three, the oldest such request first, and
/// only by a transaction that can be a new purchase of the user's own: not
/// revoked, not upgraded, not shared by a family member, and not one that
/// completed a request already.
public struct StoreKit2PendingPurchases: Sendable, Hashable, Codable {
    /// How many requests are kept, completed ones included: the oldest go
    /// first. A declined request never completes (StoreKit 2 sends nothing
    /// for it), so without a bound they would be kept for ever.
    public static let kept = 100

    /// Oldest first.
    public private(set) var purchases: [StoreKit2PendingPurchase]

    /// Requests already made, oldest first.
    public init(_ purchases: [StoreKit2PendingPurchase] = []) {
        self.purchases = Array(purchases.suffix(Self.kept))
    }

    /// Adds a request StoreKit just left pending (the newest).
    public mutating func add(_ purchase: StoreKit2PendingPurchase) {
        purchases.append(purchase)
        if purchases.count > Self.kept { purchases.removeFirst(purchases.count - Self.kept) }
    }

    /// Completes, with `transaction`, the oldest open request for the same
    /// product, quantity and token, and returns it; nil when the transaction
    /// approves none (it cannot be an approval, it completed a request
    /// already, or no open request asks for exactly it).
    public mutating func complete(by transaction: any StoreKit2Transaction) -> StoreKit2PendingPurchase? {
        let id = String(transaction.id)
        guard Self.canApprove(transaction), !purchases.contains(where: { $0.completedBy == id }),
              let index = purchases.firstIndex(where: { $0.completedBy == nil && Self.asksFor(transaction, $0) })
        else { return nil }
        purchases[index].completedBy = id
        return purchases[index]
    }

    /// Whether the transaction can be a purchase the user just made: an
    /// approval is the user's own (a family member's purchase shared with
    /// them carries `ownershipType` `.familyShared`), standing (neither
    /// revoked nor upgraded: those are later versions of a purchase made before).
    static func canApprove(_ transaction: any StoreKit2Transaction) -> Bool {
        transaction.revocationDate == nil && !transaction.isUpgraded && transaction.ownershipType == .purchased
    }

    /// Whether the transaction is what the request asked for: the same
    /// product, quantity and token (a request made without a token matches
    /// only a transaction without one).
    static func asksFor(_ transaction: any StoreKit2Transaction, _ request: StoreKit2PendingPurchase) -> Bool {
        request.productID == transaction.productID && request.quantity == transaction.purchasedQuantity
            && request.appAccountToken == transaction.appAccountToken
    }
}
