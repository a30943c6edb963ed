public import Foundation
public import StorekeeperCore
public import StorekeeperRuntime

/// Where a persistence strategy keeps records outside the engine's own
/// database: `user-defaults` (a file on the device), `icloud` (a store
/// synced between devices), `server` (the app's server).
///
/// The queue keeps a step's records before it commits the journal entry that
/// marks the step done, so after a crash between the two it keeps them again:
/// keeping a record must be idempotent (the same product, transaction and
/// value kept twice is one record).
public protocol RecordStore: Sendable {
    /// Keeps a record. Throws a transient `StepFailure` when the store cannot
    /// be reached now, a permanent one when it refuses the record.
    func keep(_ record: StoredRecord) async throws(StepFailure)
    /// Every record the store holds (for a synced store, from every device).
    func records() async throws(StepFailure) -> [StoredRecord]
}

/// A record of a purchase as a record store keeps it.
public struct StoredRecord: Sendable, Hashable {
    /// The strategy it was kept for.
    public var strategy: PersistenceStrategy
    /// The product bought: the record's key.
    public var productID: String
    /// A flag, a copy of the receipt, or the transaction.
    public var value: PersistenceRecord.Value
    /// The transaction that made the record.
    public var transactionID: String
    /// The app's opaque name for the user, if the payment carried one.
    public var applicationUsername: String?
    /// When the product was bought.
    public var purchaseDate: Date
    /// When a subscription ends, if it does.
    public var expirationDate: Date?
    /// How many units the transaction bought, when the store keeps it (the
    /// synced store does, so that another device counts a consumable's
    /// grants); `nil` when not known. A `.transaction` value carries its own.
    public var quantity: Int?

    /// Creates a record.
    public init(strategy: PersistenceStrategy, productID: String, value: PersistenceRecord.Value, transactionID: String,
                applicationUsername: String? = nil, purchaseDate: Date, expirationDate: Date? = nil, quantity: Int? = nil) {
        self.strategy = strategy
        self.productID = productID
        self.value = value
        self.transactionID = transactionID
        self.applicationUsername = applicationUsername
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.quantity = quantity
    }

    /// How many units the transaction bought: its own quantity, that of its
    /// `.transaction` value, else 1.
    public var units: Int {
        if let quantity { return quantity }
        if case .transaction(_, let count) = value { return count }
        return 1
    }
}

/// The record stores an app provides, by strategy. `app-state` records live
/// in the queue's journal database and `receipt` needs none (the store's
/// receipt is the record); a product whose strategy has no store here fails
/// its `persist` step permanently, with a message that names what to provide.
public struct RecordStores: Sendable {
    /// `user-defaults`: a key-value file on this device.
    public var userDefaults: (any RecordStore)?
    /// `icloud`: a key-value store synced between the user's devices.
    public var iCloud: (any RecordStore)?
    /// `server`: the app's server (see docs/server-contract.md).
    public var server: (any RecordStore)?

    /// Record stores; none by default.
    public init(userDefaults: (any RecordStore)? = nil, iCloud: (any RecordStore)? = nil, server: (any RecordStore)? = nil) {
        self.userDefaults = userDefaults
        self.iCloud = iCloud
        self.server = server
    }

    /// The store for a strategy kept outside the journal, if one was given.
    public func store(for strategy: PersistenceStrategy) -> (any RecordStore)? {
        switch strategy {
        case .userDefaults: userDefaults
        case .icloud: iCloud
        case .server: server
        case .receipt, .appState: nil
        }
    }
}
