/// A transaction StoreKit 1 delivered purchased or restored in this process:
/// what a revocation of its product may take back, and the purchase it
/// restores, by which a refreshed receipt may list it instead.
struct StoreKit1HeldTransaction: Sendable, Hashable {
    /// Its `transactionIdentifier`: the id the queue knows it by.
    var id: String
    /// For a restore, `original.transactionIdentifier`.
    var originalID: String?
}
