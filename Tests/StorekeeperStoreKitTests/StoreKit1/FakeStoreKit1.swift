import Foundation
import StorekeeperCore
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// An `SKPaymentTransaction` the test moves from state to state, as StoreKit
/// moves one object through its states within a process.
final class FakeSKTransaction: StoreKit1Transaction, @unchecked Sendable {
    // @unchecked: every field is behind `fields`' lock.
    struct Fields {
        var state: StoreKit1TransactionState = .purchasing
        var id: String?
        var original: FakeSKTransaction?
        var payment: StoreKit1Payment
        var date: Date?
        var error: StoreKit1Error?
        var downloads: [FakeDownload] = []
    }
    let fields: Locked<Fields>

    init(_ payment: StoreKit1Payment, state: StoreKit1TransactionState = .purchasing, id: String? = nil,
         date: Date? = nil, original: FakeSKTransaction? = nil, error: StoreKit1Error? = nil, downloads: [FakeDownload] = []) {
        fields = Locked(Fields(state: state, id: id, original: original, payment: payment, date: date, error: error, downloads: downloads))
    }

    var purchaseState: StoreKit1TransactionState { fields.withLock { $0.state } }
    var storeTransactionID: String? { fields.withLock { $0.id } }
    var originalStoreTransaction: (any StoreKit1Transaction)? { fields.withLock { $0.original } }
    var storePayment: StoreKit1Payment { fields.withLock { $0.payment } }
    var storeTransactionDate: Date? { fields.withLock { $0.date } }
    var storeError: StoreKit1Error? { fields.withLock { $0.error } }
    var storeDownloads: [any StoreKit1Download] { fields.withLock { $0.downloads } }

    /// Moves the object to another state (its identifier and date, once completed).
    func become(_ state: StoreKit1TransactionState, id: String? = nil, date: Date? = nil, error: StoreKit1Error? = nil) {
        fields.withLock {
            $0.state = state
            if let id { $0.id = id }
            if let date { $0.date = date }
            $0.error = error
        }
    }
}

/// An `SKDownload` whose state and progress the test (or the fake queue) sets.
final class FakeDownload: StoreKit1Download, @unchecked Sendable {
    // @unchecked: every field is behind `fields`' lock.
    struct Fields {
        var phase: StoreKit1DownloadState = .waiting
        var progress: Float = 0
        var url: URL?
        var error: StoreKit1Error?
    }
    let fields = Locked(Fields())
    let downloadContentIdentifier: String

    init(content: String) { downloadContentIdentifier = content }

    var downloadPhase: StoreKit1DownloadState { fields.withLock { $0.phase } }
    var downloadProgress: Float { fields.withLock { $0.progress } }
    var downloadTimeRemaining: Double? { nil }
    var downloadContentURL: URL? { fields.withLock { $0.url } }
    var downloadError: StoreKit1Error? { fields.withLock { $0.error } }

    func set(_ phase: StoreKit1DownloadState, progress: Float? = nil, url: URL? = nil, error: StoreKit1Error? = nil) {
        fields.withLock {
            $0.phase = phase
            if let progress { $0.progress = progress }
            if let url { $0.url = url }
            $0.error = error
        }
    }
}

/// `SKPaymentQueue`, scripted: it records every call, keeps the unfinished
/// transactions, and calls the backend as StoreKit calls its observer.
final class FakePaymentQueue: StoreKit1PaymentQueue, @unchecked Sendable {
    // @unchecked: every field is behind `calls`' lock; `backend` is set once, before use.
    struct Calls {
        var payments: [StoreKit1Payment] = []
        var made: [FakeSKTransaction] = []
        var finished: [String] = []
        var finishedObjects: [ObjectIdentifier] = []
        var restores: [String?] = []
        var unfinished: [FakeSKTransaction] = []
        var started: [String] = []
        var paused: [String] = []
        var resumed: [String] = []
        var cancelled: [String] = []
        /// The transaction observers StoreKit calls (`add(_:)`, not yet `remove(_:)`).
        var observers: [ObjectIdentifier] = []
        /// Every `remove(_:)`, in order.
        var removedObservers: [ObjectIdentifier] = []
    }
    let calls = Locked(Calls())
    /// The observer StoreKit calls.
    weak var backend: StoreKit1Backend?
    /// Whether `finishTransaction` is followed by `removedTransactions`, as StoreKit does.
    let reportsRemovals: Bool
    /// What StoreKit does with downloads once started (by default, nothing yet).
    let onStart: @Sendable ([FakeDownload]) -> Void

    init(reportsRemovals: Bool = true, onStart: @escaping @Sendable ([FakeDownload]) -> Void = { _ in }) {
        self.reportsRemovals = reportsRemovals
        self.onStart = onStart
    }

    // StoreKit's side, driven by the test.

    /// StoreKit calls `paymentQueue(_:updatedTransactions:)` with these.
    /// A restore StoreKit never makes is refused (recorded as an issue, not
    /// delivered): `restoreCompletedTransactions()` "has no effect" on "items
    /// that are not restorable, such as a non-renewing subscription or a
    /// consumable product"
    /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()).
    func deliver(_ transactions: FakeSKTransaction..., sourceLocation: SourceLocation = #_sourceLocation) {
        let refused = transactions.filter { !isRestorable($0) }
        for transaction in refused {
            Issue.record("StoreKit never restores \(transaction.storePayment.productID): a consumable or a non-renewing subscription",
                         sourceLocation: sourceLocation)
        }
        let transactions = transactions.filter(isRestorable)
        if transactions.isEmpty { return }
        calls.withLock { calls in
            for transaction in transactions where !calls.unfinished.contains(where: { $0 === transaction }) {
                calls.unfinished.append(transaction)
            }
        }
        backend?.updatedTransactions(transactions)
    }

    /// StoreKit calls `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`
    /// when the App Store takes purchases of these products back (Family
    /// Sharing changed, or the purchaser was refunded):
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)
    /// It names products only; the receipt the test sets says which purchases went.
    func revokeEntitlements(for productIDs: [String]) async {
        await backend?.didRevokeEntitlements(forProductIdentifiers: productIDs)
    }

    /// Whether StoreKit could deliver the transaction: anything but a restore
    /// of a consumable or a non-renewing subscription (the catalog says which,
    /// as StoreKit knows from App Store Connect).
    func isRestorable(_ transaction: FakeSKTransaction) -> Bool {
        guard transaction.purchaseState == .restored, let policy = backend?.policy,
              let handle = policy.product(id: transaction.storePayment.productID) else { return true }
        let type = policy.product(handle).type
        return type != .consumable && type != .nonRenewingSubscription
    }

    /// StoreKit calls `paymentQueueDidChangeStorefront(_:)`: the device's App
    /// Store storefront changed (the user moved to another country's store).
    func changeStorefront() {
        backend?.storefrontDidChange()
    }

    /// The transaction the last payment made.
    var lastMade: FakeSKTransaction? { calls.withLock { $0.made.last } }
    var finished: [String] { calls.withLock { $0.finished } }
    var payments: [StoreKit1Payment] { calls.withLock { $0.payments } }

    // The protocol.

    func addPayment(_ payment: StoreKit1Payment) {
        let transaction = FakeSKTransaction(payment)
        calls.withLock {
            $0.payments.append(payment)
            $0.made.append(transaction)
        }
        deliver(transaction)
    }

    func finishStoreTransaction(_ transaction: any StoreKit1Transaction) {
        calls.withLock { calls in
            calls.finished.append(transaction.storeTransactionID ?? "(no id: \(transaction.storePayment.productID) \(transaction.purchaseState))")
            calls.finishedObjects.append(ObjectIdentifier(transaction))
            calls.unfinished.removeAll { $0 === transaction }
        }
        if reportsRemovals { backend?.removedTransactions([transaction]) }
    }

    func restoreStoreTransactions(applicationUsername: String?) {
        calls.withLock { $0.restores.append(applicationUsername) }
    }

    func addStoreObserver(_ observer: AnyObject) {
        calls.withLock { $0.observers.append(ObjectIdentifier(observer)) }
    }

    func removeStoreObserver(_ observer: AnyObject) {
        calls.withLock { calls in
            calls.removedObservers.append(ObjectIdentifier(observer))
            calls.observers.removeAll { $0 == ObjectIdentifier(observer) }
        }
    }

    var unfinishedTransactions: [any StoreKit1Transaction] { calls.withLock { $0.unfinished } }

    func startDownloads(_ downloads: [any StoreKit1Download]) {
        let fakes = downloads.compactMap { $0 as? FakeDownload }
        calls.withLock { $0.started += fakes.map(\.downloadContentIdentifier) }
        onStart(fakes)
    }

    func pauseDownloads(_ downloads: [any StoreKit1Download]) {
        calls.withLock { $0.paused += downloads.map(\.downloadContentIdentifier) }
        for case let download as FakeDownload in downloads { download.set(.paused) }
        backend?.updatedDownloads(downloads)
    }

    func resumeDownloads(_ downloads: [any StoreKit1Download]) {
        calls.withLock { $0.resumed += downloads.map(\.downloadContentIdentifier) }
        for case let download as FakeDownload in downloads { download.set(.active) }
        backend?.updatedDownloads(downloads)
    }

    func cancelDownloads(_ downloads: [any StoreKit1Download]) {
        calls.withLock { $0.cancelled += downloads.map(\.downloadContentIdentifier) }
        for case let download as FakeDownload in downloads { download.set(.cancelled) }
        backend?.updatedDownloads(downloads)
    }
}

/// The app receipt: bytes the test sets, and a refresh that puts `refreshed` in place.
final class FakeReceipt: StoreKit1AppReceipt, @unchecked Sendable {
    // @unchecked: every field is behind `state`'s lock.
    struct State {
        var bytes: [UInt8]?
        var refreshed: [UInt8]?
        var refreshes = 0
        var refreshFailure: StepFailure?
    }
    let state: Locked<State>

    init(bytes: [UInt8]? = Array("receipt-1".utf8), refreshed: [UInt8]? = nil) {
        state = Locked(State(bytes: bytes, refreshed: refreshed))
    }

    func receiptBytes() -> [UInt8]? { state.withLock { $0.bytes } }

    func refresh() async throws(StepFailure) {
        let failure: StepFailure? = state.withLock { state in
            state.refreshes += 1
            if let failure = state.refreshFailure { return failure }
            if let refreshed = state.refreshed { state.bytes = refreshed }
            return nil
        }
        if let failure { throw failure }
    }
}

/// `SKProductsRequest`, answering from a table.
struct FakeProductsRequester: StoreKit1ProductsRequester {
    let sold: [StoreKit1Product]
    let asked = Locked<[Set<String>]>([])

    func products(for ids: Set<String>) async throws(StepFailure) -> StoreKit1ProductsResponse {
        asked.withLock { $0.append(ids) }
        let found = sold.filter { ids.contains($0.id) }
        return StoreKit1ProductsResponse(products: found, invalidProductIdentifiers: Array(ids.subtracting(found.map(\.id))).sorted())
    }
}
