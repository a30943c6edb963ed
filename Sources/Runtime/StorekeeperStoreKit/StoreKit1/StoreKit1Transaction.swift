public import Foundation

/// The part of StoreKit's `SKPaymentTransaction` that ``StoreKit1Backend`` reads.
///
/// A class protocol: the backend tells transactions apart by object
/// identity while they have no `transactionIdentifier` (purchasing, deferred,
/// failed), as StoreKit hands the same object to the observer each time
/// such a transaction changes state within one process.
public protocol StoreKit1Transaction: AnyObject {
    /// `transactionState`.
    var purchaseState: StoreKit1TransactionState { get }
    /// `transactionIdentifier`: present once the transaction is purchased or restored.
    var storeTransactionID: String? { get }
    /// `original`: for a restored transaction, the transaction it restores.
    var originalStoreTransaction: (any StoreKit1Transaction)? { get }
    /// `payment`: the product, the quantity and the user name.
    var storePayment: StoreKit1Payment { get }
    /// `transactionDate`: when the App Store processed it (none while purchasing).
    var storeTransactionDate: Date? { get }
    /// `error`: why it failed, for a failed transaction.
    var storeError: StoreKit1Error? { get }
    /// `downloads`: the Apple-hosted content that comes with it.
    var storeDownloads: [any StoreKit1Download] { get }
}

/// `SKPaymentTransactionState`.
public enum StoreKit1TransactionState: Int, Sendable, Hashable, CaseIterable {
    /// `.purchasing` (0): the App Store is processing it.
    case purchasing = 0
    /// `.purchased` (1): paid; deliver, then finish.
    case purchased = 1
    /// `.failed` (2): it did not go through; `error` says why.
    case failed = 2
    /// `.restored` (3): a completed transaction delivered again by a restore.
    case restored = 3
    /// `.deferred` (4): waiting for an outside action (Ask to Buy).
    case deferred = 4
}
