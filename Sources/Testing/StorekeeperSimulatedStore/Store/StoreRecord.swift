import Foundation
public import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// A transaction as the simulated store keeps it.
struct StoreRecord: Sendable, Hashable {
    /// Why the transaction exists.
    enum Kind: Sendable, Hashable {
        /// A payment.
        case purchase
        /// An auto-renewable subscription's new period.
        case renewal
        /// A restore of a completed transaction.
        case restore
    }

    var id: String
    var sequence: Int
    var productID: String
    var quantity: Int
    var user: String?
    /// The device whose queue it belongs to.
    var device: String
    var state: TransactionState
    var error: StoreErrorCode?
    var originalID: String?
    var purchaseDate: Date
    var expirationDate: Date?
    var kind: Kind
    var finished = false
    var charged = true
    var revoked = false
    /// When and why it was revoked, for a signed payload's `revocationDate`.
    var revocation: SignedTransactionFacts.Revocation?
    /// When Ask to Buy asked (a request unanswered for 24 hours is deleted).
    var askedAt: Date?
    var expired = false
    /// An interrupted purchase waiting for the user's action.
    var interruptionPending = false

    init(id: String, sequence: Int, productID: String, quantity: Int, user: String?, device: String, state: TransactionState,
         purchaseDate: Date, kind: Kind) {
        self.id = id
        self.sequence = sequence
        self.productID = productID
        self.quantity = quantity
        self.user = user
        self.device = device
        self.state = state
        self.purchaseDate = purchaseDate
        self.kind = kind
    }

    /// Delivered at every launch until finished (a request in progress or expired is not).
    var isUnfinished: Bool {
        guard !finished, !expired else { return false }
        return state == .purchased || state == .failed || state == .restored || state == .deferred
    }

    /// What the queue receives.
    var storeTransaction: StoreTransaction {
        // A stand-in receipt: what a server would verify (docs/server-contract.md).
        let receipt: [UInt8]? = state == .purchased || state == .restored ? Array("simulated-receipt:\(id):\(productID)".utf8) : nil
        let info = TransactionInfo(id: id, productID: productID, state: state, error: error, quantity: quantity,
                                   applicationUsername: user, receipt: receipt)
        return StoreTransaction(info, originalID: originalID, purchaseDate: purchaseDate, expirationDate: expirationDate)
    }
}

/// An auto-renewable subscription the account pays for.
struct SubscriptionRecord: Sendable, Hashable {
    var productID: String
    var originalID: String
    /// Where its renewals arrive: the device of the first purchase.
    var device: String
    var expires: Date
    var autoRenew: Bool
    var ended = false
}

/// What the store knows of one device.
struct DeviceRecord: Sendable {
    /// The running app's queue; nil while the app is not running.
    var sink: StoreEventSink?
    var offline = false
    /// The transactions the device's copy of the receipt knows.
    var receipt: Set<String> = []
    /// Refunds that happened while the app was not running.
    var pendingRevocations: [StoreRevocation] = []
    var pausedDownloads = false
    var fault: DownloadFault?
    var nextOutcome: PurchaseOutcome?
    /// Payments sent, waiting for the store's answer.
    var processing: [(id: String, outcome: PurchaseOutcome)] = []
    var restoreSelection: Set<String>?
}

/// One transaction's download of Apple-hosted content.
public struct DownloadRecord: Sendable, Hashable {
    /// The product whose content it is.
    public var productID: String
    /// The transaction it belongs to.
    public var transactionID: String
    /// The device it goes to.
    public var device: String
    /// Its size in bytes.
    public var total: Int64
    /// Where it goes.
    public var storage: ContentStorage
    /// Its state.
    public var state: DownloadState = .none
    /// How much is on the device, 0 to 100.
    public var percent = 0
    /// Why it stopped, when failed.
    public var reason: String?
    /// Where it was put (relative to the simulation's folder), once finished.
    public var path: String?

    init(productID: String, transactionID: String, device: String, total: Int64, storage: ContentStorage) {
        self.productID = productID
        self.transactionID = transactionID
        self.device = device
        self.total = total
        self.storage = storage
    }
}
