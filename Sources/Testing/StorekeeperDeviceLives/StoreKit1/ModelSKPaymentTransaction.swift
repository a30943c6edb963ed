public import Foundation
import StorekeeperCore
public import StorekeeperStoreKit

/// An `SKPaymentTransaction` of the model-driven StoreKit 1: one object per transaction per launch, as StoreKit
/// hands the observer the same object each time a transaction changes state within one process, and a new one
/// for the same transaction after a relaunch
/// (https://developer.apple.com/documentation/storekit/skpaymenttransaction).
public final class ModelSKPaymentTransaction: StoreKit1Transaction, Sendable {
    /// What StoreKit changes as the transaction moves on.
    private struct Fields {
        var state: StoreKit1TransactionState
        var identifier: String?
        var date: Date?
        var error: StoreKit1Error?
    }

    private let fields: Locked<Fields>
    /// `original`: for a restore, the purchase it restores.
    public let original: ModelSKPaymentTransaction?
    /// `payment`.
    public let payment: StoreKit1Payment

    /// A transaction in `state`.
    public init(payment: StoreKit1Payment, state: StoreKit1TransactionState, identifier: String? = nil, date: Date? = nil,
                original: ModelSKPaymentTransaction? = nil, error: StoreKit1Error? = nil) {
        self.payment = payment
        fields = Locked(Fields(state: state, identifier: identifier, date: date, error: error))
        self.original = original
    }

    /// Moves the object to another state, as StoreKit moves a purchasing transaction to purchased or failed.
    func become(_ state: StoreKit1TransactionState, identifier: String? = nil, date: Date? = nil, error: StoreKit1Error? = nil) {
        fields.withLock { fields in
            fields.state = state
            if let identifier { fields.identifier = identifier }
            if let date { fields.date = date }
            fields.error = error
        }
    }

    public var purchaseState: StoreKit1TransactionState { fields.withLock { $0.state } }
    public var storeTransactionID: String? { fields.withLock { $0.identifier } }
    public var originalStoreTransaction: (any StoreKit1Transaction)? { original }
    public var storePayment: StoreKit1Payment { payment }
    public var storeTransactionDate: Date? { fields.withLock { $0.date } }
    public var storeError: StoreKit1Error? { fields.withLock { $0.error } }
    /// No Apple-hosted content in the model's catalog.
    public var storeDownloads: [any StoreKit1Download] { [] }
}
