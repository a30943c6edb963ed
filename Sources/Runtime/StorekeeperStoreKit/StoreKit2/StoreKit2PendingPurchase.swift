public import Foundation

/// A purchase StoreKit 2 left pending (Ask to Buy, or a step the user must
/// take first): it has no transaction yet, so the backend names it with a
/// local identifier, the id of the `deferred` transaction the queue sees.
public struct StoreKit2PendingPurchase: Sendable, Hashable, Codable {
    /// `pending-` then a random UUID, lowercased: never a StoreKit 2
    /// transaction id (those are decimal numbers), and new for every
    /// pending purchase, so that two pending purchases of one product, or
    /// one before and one after a relaunch, are two transactions to the
    /// queue's journal, not a duplicate.
    public var id: String
    /// The product asked for.
    public var productID: String
    /// How many.
    public var quantity: Int
    /// The app's name for the user who asked.
    public var applicationUsername: String?
    /// The token the purchase carried (derived from ``applicationUsername``).
    public var appAccountToken: UUID?
    /// The transaction that completed it, once one arrived: the approval (`nil` until then;
    /// a declined request never completes). Kept after it completes, so that
    /// the same transaction delivered again (after a relaunch, or signed again)
    /// never completes a second request.
    public var completedBy: String?

    /// Describes a pending purchase.
    package init(id: String, productID: String, quantity: Int, applicationUsername: String?, appAccountToken: UUID?,
                completedBy: String? = nil) {
        self.id = id
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.appAccountToken = appAccountToken
        self.completedBy = completedBy
    }
}
