import Foundation
import StorekeeperStoreKit

/// An `SKPaymentTransaction` of the model-driven StoreKit 1: one object per transaction per launch, as StoreKit
/// hands the observer the same object each time a transaction changes state within one process, and a new one
/// for the same transaction after a relaunch
/// (https://developer.apple.com/documentation/storekit/skpaymenttransaction).
public final class ModelSKPaymentTransaction: StoreKit1Transaction, @unchecked Sendable {
    // @unchecked: the mutable fields are behind `lock`.
    private let lock = NSLock()
    private var state: StoreKit1TransactionState
    private var identifier: String?
    private var date: Date?
    private var error: StoreKit1Error?
    /// `original`: for a restore, the purchase it restores.
    public let original: ModelSKPaymentTransaction?
    /// `payment`.
    public let payment: StoreKit1Payment

    /// A transaction in `state`.
    public init(payment: StoreKit1Payment, state: StoreKit1TransactionState, identifier: String? = nil, date: Date? = nil,
                original: ModelSKPaymentTransaction? = nil, error: StoreKit1Error? = nil) {
        self.payment = payment
        self.state = state
        self.identifier = identifier
        self.date = date
        self.original = original
        self.error = error
    }

    /// Moves the object to another state, as StoreKit moves a purchasing transaction to purchased or failed.
    func become(_ state: StoreKit1TransactionState, identifier: String? = nil, date: Date? = nil, error: StoreKit1Error? = nil) {
        lock.lock()
        defer { lock.unlock() }
        self.state = state
        if let identifier { self.identifier = identifier }
        if let date { self.date = date }
        self.error = error
    }

    public var purchaseState: StoreKit1TransactionState { lock.withLock { state } }
    public var storeTransactionID: String? { lock.withLock { identifier } }
    public var originalStoreTransaction: (any StoreKit1Transaction)? { original }
    public var storePayment: StoreKit1Payment { payment }
    public var storeTransactionDate: Date? { lock.withLock { date } }
    public var storeError: StoreKit1Error? { lock.withLock { error } }
    /// No Apple-hosted content in the model's catalog.
    public var storeDownloads: [any StoreKit1Download] { [] }
}
