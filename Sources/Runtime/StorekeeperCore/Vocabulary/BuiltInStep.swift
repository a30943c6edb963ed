
/// The steps the engine knows without plugins: the guide's handling of a
/// transaction, one verb each.
public enum BuiltInStep: String, CaseIterable, Sendable, Hashable {
    /// Update the interface (a spinner while purchasing, the new state after).
    case notify
    /// Validate the receipt with the server before delivering.
    case verifyReceipt = "verify-receipt"
    /// Download content that is not in the app bundle.
    case download
    /// Record the purchase with the product's persistence strategy.
    case persist
    /// Make the product's features available.
    case unlock
    /// Add the product's amounts to balances (consumables).
    case grant
    /// Tell the store the transaction is done; it is not delivered again.
    case finish
    /// Show the store's error to the user.
    case presentError = "present-error"

    /// The steps that deliver a purchase: a plan must not finish before them.
    public static let delivering: [BuiltInStep] = [.download, .persist, .unlock, .grant]

    /// The built-in step with this name, if it is one.
    public init?(name: String) { self.init(rawValue: name) }
}
