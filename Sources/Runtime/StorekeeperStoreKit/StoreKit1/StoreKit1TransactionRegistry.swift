import Foundation

/// Which identifier the queue knows each StoreKit 1 transaction by, and the
/// `SKPaymentTransaction` objects kept until the plan's `finish` step.
///
/// - `purchased` transactions are keyed by their `transactionIdentifier`,
///   always: the App Store's own key, the same in every launch, so the
///   queue's journal delivers each exactly once whatever StoreKit delivers again.
/// - `restored` transactions are keyed by the purchase they restore,
///   `storekit1-restore-<original.transactionIdentifier>`: StoreKit gives each
///   restore a `transactionIdentifier` of its own, new at every restore, and
///   names the purchase it restores in `original`
///   (https://developer.apple.com/documentation/storekit/skpaymenttransaction/original),
///   so the second restore of a purchase is the queue's duplicate of the
///   first, not a new transaction to deliver again. Not the original's own
///   identifier: a purchase made on this device and its restore would then be
///   one transaction in two final states, which the queue refuses (and would
///   never finish). A restore without `original`, against StoreKit's
///   documentation, keeps its own identifier.
/// - `purchasing`, `deferred` and `failed` transactions have no
///   `transactionIdentifier`. Each object gets a local identifier,
///   `storekit1-local-<UUID>`, the first time it is seen, and keeps it while
///   it moves through those states in this process (StoreKit hands the
///   observer the same object each time): its `deferred` update supersedes
///   its `purchasing` one, its `failed` one supersedes both, and two
///   failures are two objects, two identifiers, each presenting its error.
///   A random UUID, not a counter, because the journal outlives the process:
///   a counter would start again at the next launch and a new transaction
///   would be taken for a journalled one. Objects are kept until finished
///   or removed, so an `ObjectIdentifier` is never reused while it keys one.
/// - When an object that had a local identifier becomes `purchased` (Ask to
///   Buy approved, or a purchase that went through), its local identifier
///   is resolved to the `transactionIdentifier` (``approvals``).
///
/// After a relaunch StoreKit delivers an unfinished `deferred` or `failed`
/// transaction again as a new object, which gets a new local identifier:
/// the interface is told of it again (the request still waits; the failure
/// is presented again), nothing is delivered twice (neither state
/// delivers), and an approval that follows is keyed by its
/// `transactionIdentifier` like any purchase.
struct StoreKit1TransactionRegistry {
    /// The prefix of local identifiers (App Store identifiers are digits).
    static let localPrefix = "storekit1-local-"
    /// The prefix of a restore's identifier, before the original's `transactionIdentifier`.
    static let restorePrefix = "storekit1-restore-"

    /// The identifier the queue knows a restore of `originalID` by.
    static func restoreKey(of originalID: String) -> String { restorePrefix + originalID }

    /// The identifier the queue knows a purchased or restored transaction by
    /// (nil for other states, and for a purchase without `transactionIdentifier`).
    static func completedID(of transaction: any StoreKit1Transaction) -> String? {
        switch transaction.purchaseState {
        case .purchased: transaction.storeTransactionID
        case .restored: transaction.originalStoreTransaction?.storeTransactionID.map(restoreKey) ?? transaction.storeTransactionID
        case .purchasing, .deferred, .failed: nil
        }
    }

    /// The objects kept, by the identifier the queue knows them by.
    private var held: [String: any StoreKit1Transaction] = [:]
    /// The local identifier of each object that has one.
    private var localIDs: [ObjectIdentifier: String] = [:]
    /// Local identifiers whose object was then purchased, with its `transactionIdentifier`.
    private(set) var approvals: [String: String] = [:]
    /// Identifiers of transactions StoreKit removed from its queue (finished).
    private var removed: Set<String> = []

    /// The identifier the queue knows `transaction` by; keeps the object.
    mutating func identify(_ transaction: any StoreKit1Transaction) -> String {
        let key = ObjectIdentifier(transaction)
        let state = transaction.purchaseState
        if let id = Self.completedID(of: transaction) {
            if let local = localIDs.removeValue(forKey: key) {
                held[local] = nil
                approvals[local] = id
            }
            // Another restore of a purchase whose earlier restore StoreKit
            // removed: a new object to finish under the same identifier.
            if state == .restored, held[id].map({ $0 !== transaction }) ?? true { removed.remove(id) }
            held[id] = transaction
            return id
        }
        // No transactionIdentifier yet (or, against StoreKit's documentation, none
        // for a completed one): the object's own local identifier.
        let local = localIDs[key] ?? Self.localPrefix + UUID().uuidString.lowercased()
        localIDs[key] = local
        held[local] = transaction
        return local
    }

    /// The object kept for an identifier.
    func transaction(_ id: String) -> (any StoreKit1Transaction)? { held[id] }

    /// Whether StoreKit removed the transaction from its queue in this process.
    func wasRemoved(_ id: String) -> Bool { removed.contains(id) }

    /// Stops keeping the object for an identifier (it is finished).
    mutating func release(_ id: String) {
        guard let transaction = held.removeValue(forKey: id) else { return }
        localIDs[ObjectIdentifier(transaction)] = nil
    }

    /// Notes that StoreKit removed `transaction` from its queue, and stops
    /// keeping it; returns the identifier the queue knew it by, if any.
    mutating func remove(_ transaction: any StoreKit1Transaction) -> String? {
        let key = ObjectIdentifier(transaction)
        let id = localIDs.removeValue(forKey: key) ?? Self.completedID(of: transaction)
        guard let id else { return nil }
        removed.insert(id)
        if let kept = held[id], kept === transaction { held[id] = nil }
        return id
    }
}
