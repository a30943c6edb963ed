/// A transaction with what StoreKit's check of the App Store's signature
/// found (`VerificationResult<Transaction>`).
public enum StoreKit2Verification: Sendable {
    /// The signature checks out: the App Store signed this transaction for this app and device.
    case verified(any StoreKit2Transaction)
    /// The signature does not check out; `reason` says why (`VerificationResult.VerificationError`).
    /// The transaction's fields are what the payload says, unproven.
    case unverified(any StoreKit2Transaction, reason: String)

    /// The transaction, verified or not.
    public var transaction: any StoreKit2Transaction {
        switch self {
        case .verified(let transaction), .unverified(let transaction, _): transaction
        }
    }
}
