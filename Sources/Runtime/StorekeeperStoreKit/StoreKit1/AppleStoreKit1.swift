// Apple's StoreKit 1 types conform to the backend's protocols, and an
// observer forwards SKPaymentTransactionObserver's calls to the backend.
// Only where StoreKit exists; on Linux, Scripts/check-storekit-mirror
// compiles this file against StoreKitMirror (which cannot check the
// deprecation marks: iOS-only availability is ignored off Apple platforms).
//
// StoreKit 1 is deprecated (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2;
// its hosted-content downloads since iOS 16, macOS 13, tvOS 16, watchOS 9,
// and never on visionOS): everything here is marked deprecated with it.
#if canImport(StoreKit)
import Foundation
import StoreKit
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

// MARK: - The payment queue

/// StoreKit's payment queue as the StoreKit 1 backend drives it.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
extension SKPaymentQueue: StoreKit1PaymentQueue {
    /// `add(_:)` with an `SKMutablePayment`.
    public func addPayment(_ payment: StoreKit1Payment) {
        let request = SKMutablePayment()
        request.productIdentifier = payment.productID
        request.quantity = payment.quantity
        request.applicationUsername = payment.applicationUsername
        if let discount = payment.discount {
            request.paymentDiscount = SKPaymentDiscount(identifier: discount.identifier, keyIdentifier: discount.keyIdentifier,
                                                        nonce: discount.nonce, signature: discount.signature,
                                                        timestamp: NSNumber(value: discount.timestamp))
        }
        add(request)
    }

    /// `finishTransaction(_:)`.
    public func finishStoreTransaction(_ transaction: any StoreKit1Transaction) {
        guard let transaction = transaction as? SKPaymentTransaction else { return }
        finishTransaction(transaction)
    }

    /// `restoreCompletedTransactions(withApplicationUsername:)`, or `restoreCompletedTransactions()`.
    public func restoreStoreTransactions(applicationUsername: String?) {
        if let applicationUsername {
            restoreCompletedTransactions(withApplicationUsername: applicationUsername)
        } else {
            restoreCompletedTransactions()
        }
    }

    /// `add(_:)` with the observer.
    public func addStoreObserver(_ observer: AnyObject) {
        guard let observer = observer as? any SKPaymentTransactionObserver else { return }
        add(observer)
    }

    /// `remove(_:)`
    /// (https://developer.apple.com/documentation/storekit/skpaymentqueue/remove(_:)).
    public func removeStoreObserver(_ observer: AnyObject) {
        guard let observer = observer as? any SKPaymentTransactionObserver else { return }
        remove(observer)
    }

    /// `transactions`.
    public var unfinishedTransactions: [any StoreKit1Transaction] { transactions }

    /// `start(_:)`.
    public func startDownloads(_ downloads: [any StoreKit1Download]) {
        #if !os(visionOS)
        start(downloads.compactMap { $0 as? SKDownload })
        #endif
    }

    /// `pause(_:)`.
    public func pauseDownloads(_ downloads: [any StoreKit1Download]) {
        #if !os(visionOS)
        pause(downloads.compactMap { $0 as? SKDownload })
        #endif
    }

    /// `resume(_:)`.
    public func resumeDownloads(_ downloads: [any StoreKit1Download]) {
        #if !os(visionOS)
        resume(downloads.compactMap { $0 as? SKDownload })
        #endif
    }

    /// `cancel(_:)`.
    public func cancelDownloads(_ downloads: [any StoreKit1Download]) {
        #if !os(visionOS)
        cancel(downloads.compactMap { $0 as? SKDownload })
        #endif
    }
}

// MARK: - Transactions and downloads

/// StoreKit's transaction as the StoreKit 1 backend reads it.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
extension SKPaymentTransaction: StoreKit1Transaction {
    /// `transactionState`. A state newer than this code is taken as
    /// purchasing: shown, nothing delivered, not finished.
    public var purchaseState: StoreKit1TransactionState {
        switch transactionState {
        case .purchasing: .purchasing
        case .purchased: .purchased
        case .failed: .failed
        case .restored: .restored
        case .deferred: .deferred
        @unknown default: .purchasing
        }
    }

    /// `transactionIdentifier`.
    public var storeTransactionID: String? { transactionIdentifier }
    /// `original`.
    public var originalStoreTransaction: (any StoreKit1Transaction)? { original }
    /// `payment`.
    public var storePayment: StoreKit1Payment {
        StoreKit1Payment(productID: payment.productIdentifier, quantity: payment.quantity, applicationUsername: payment.applicationUsername)
    }
    /// `transactionDate`.
    public var storeTransactionDate: Date? { transactionDate }
    /// `error`.
    public var storeError: StoreKit1Error? { error.map(StoreKit1Error.init(reported:)) }
    /// `downloads` (none on visionOS, which never had hosted content).
    public var storeDownloads: [any StoreKit1Download] {
        #if os(visionOS)
        []
        #else
        downloads
        #endif
    }
}

#if !os(visionOS)
/// StoreKit's download of Apple-hosted content as the StoreKit 1 backend reads it.
@available(iOS, deprecated: 16.0, message: "Apple-hosted content is no longer supported")
@available(macOS, deprecated: 13.0, message: "Apple-hosted content is no longer supported")
@available(tvOS, deprecated: 16.0, message: "Apple-hosted content is no longer supported")
@available(watchOS, deprecated: 9.0, message: "Apple-hosted content is no longer supported")
extension SKDownload: StoreKit1Download {
    /// `state`. A state newer than this code is taken as waiting.
    public var downloadPhase: StoreKit1DownloadState {
        switch state {
        case .waiting: .waiting
        case .active: .active
        case .paused: .paused
        case .finished: .finished
        case .failed: .failed
        case .cancelled: .cancelled
        @unknown default: .waiting
        }
    }

    /// `progress`.
    public var downloadProgress: Float { progress }
    /// `timeRemaining`, nil for `SKDownloadTimeRemainingUnknown`.
    public var downloadTimeRemaining: Double? { timeRemaining == SKDownloadTimeRemainingUnknown ? nil : timeRemaining }
    /// `contentURL`.
    public var downloadContentURL: URL? { contentURL }
    /// `error`.
    public var downloadError: StoreKit1Error? { error.map(StoreKit1Error.init(reported:)) }
    /// `contentIdentifier`.
    public var downloadContentIdentifier: String { contentIdentifier }
}
#endif

extension StoreKit1Error {
    /// The domain, code and description of an error StoreKit reported (an `NSError`).
    init(reported error: any Error) {
        let reported = error as NSError
        self.init(domain: reported.domain, code: reported.code, message: reported.localizedDescription)
    }
}

// MARK: - The observer

/// The transaction observer: registered with `SKPaymentQueue` at launch,
/// it forwards each call to the backend (which it does not keep alive: the
/// backend keeps it). `StoreKit1Backend.onDefaultQueue(policy:)` makes and
/// registers it.
///
/// Its methods are `SKPaymentTransactionObserver`'s, optional ones included,
/// matched by Objective-C selector: a test checks their names against
/// Apple's documentation, since a misspelt optional method would compile
/// and never be called.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
public final class StoreKit1TransactionObserver: NSObject, SKPaymentTransactionObserver {
    private weak var backend: StoreKit1Backend?

    /// An observer forwarding to `backend`.
    public init(backend: StoreKit1Backend) {
        self.backend = backend
        super.init()
    }

    /// `paymentQueue(_:updatedTransactions:)` (required).
    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        backend?.updatedTransactions(transactions)
    }

    /// `paymentQueue(_:removedTransactions:)`.
    public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        backend?.removedTransactions(transactions)
    }

    /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`.
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        backend?.restoreFinished()
    }

    /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`.
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        backend?.restoreFailed(StoreKit1Error(reported: error))
    }

    /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: Family
    /// Sharing or a refund took the products back
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)).
    /// In a task: the backend refreshes the receipt to see which transactions go.
    public func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]) {
        guard let backend else { return }
        Task { await backend.didRevokeEntitlements(forProductIdentifiers: productIdentifiers) }
    }

    /// `paymentQueueDidChangeStorefront(_:)`: the App Store storefront changed
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuedidchangestorefront(_:));
    /// the backend tells the app to look its products up again.
    public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
        backend?.storefrontDidChange()
    }

    #if !os(visionOS)
    /// `paymentQueue(_:updatedDownloads:)`.
    public func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload]) {
        backend?.updatedDownloads(downloads)
    }
    #endif

    #if !os(watchOS)
    /// `paymentQueue(_:shouldAddStorePayment:for:)`.
    public func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool {
        backend?.shouldAddStorePayment(StoreKit1Payment(productID: payment.productIdentifier, quantity: payment.quantity,
                                                        applicationUsername: payment.applicationUsername)) ?? false
    }
    #endif
}

// MARK: - The receipt and products

/// The app receipt at `Bundle.main.appStoreReceiptURL`, refreshed with `SKReceiptRefreshRequest`.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
public struct AppleAppReceipt: StoreKit1AppReceipt {
    /// The app's own receipt.
    public init() {}

    /// The file's bytes, or nil when there is none.
    public func receiptBytes() -> [UInt8]? {
        guard let url = Bundle.main.appStoreReceiptURL, let data = try? Data(contentsOf: url) else { return nil }
        return [UInt8](data)
    }

    /// `SKReceiptRefreshRequest(receiptProperties: nil).start()`, waited for.
    public func refresh() async throws(StepFailure) {
        let outcome: Result<Void, StepFailure> = await withCheckedContinuation { continuation in
            let request = SKReceiptRefreshRequest(receiptProperties: nil)
            StoreKit1RequestDelegate.start(request) { result in continuation.resume(returning: result.map { _ in () }) }
        }
        try outcome.get()
    }
}

/// `SKProductsRequest`, waited for.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
public struct AppleProductsRequester: StoreKit1ProductsRequester {
    /// Requests through StoreKit.
    public init() {}

    /// Starts an `SKProductsRequest` and waits for its response.
    public func products(for ids: Set<String>) async throws(StepFailure) -> StoreKit1ProductsResponse {
        let outcome: Result<StoreKit1ProductsResponse?, StepFailure> = await withCheckedContinuation { continuation in
            StoreKit1RequestDelegate.start(SKProductsRequest(productIdentifiers: ids)) { continuation.resume(returning: $0) }
        }
        guard let response = try outcome.get() else {
            throw .transient("StoreKit finished the products request without a response")
        }
        return response
    }
}

/// The delegate of one `SKRequest`: keeps itself and the request alive
/// (StoreKit holds its delegate weakly) until the request ends, then calls
/// back once.
@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
final class StoreKit1RequestDelegate: NSObject, SKProductsRequestDelegate {
    private var request: SKRequest?
    private var keepAlive: StoreKit1RequestDelegate?
    private var response: StoreKit1ProductsResponse?
    private var done: ((Result<StoreKit1ProductsResponse?, StepFailure>) -> Void)?

    static func start(_ request: SKRequest, done: @escaping (Result<StoreKit1ProductsResponse?, StepFailure>) -> Void) {
        let delegate = StoreKit1RequestDelegate()
        delegate.request = request
        delegate.keepAlive = delegate
        delegate.done = done
        request.delegate = delegate
        request.start()
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        self.response = StoreKit1ProductsResponse(
            products: response.products.map { product in
                StoreKit1Product(id: product.productIdentifier, localizedTitle: product.localizedTitle,
                                 localizedDescription: product.localizedDescription, price: product.price as Decimal,
                                 priceLocale: product.priceLocale)
            },
            invalidProductIdentifiers: response.invalidProductIdentifiers)
    }

    func requestDidFinish(_ request: SKRequest) {
        end(.success(response))
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        let reported = StoreKit1Error(reported: error)
        end(.failure(.transient("the App Store request failed: \(reported.message) (\(reported.domain) \(reported.code))")))
    }

    private func end(_ result: Result<StoreKit1ProductsResponse?, StepFailure>) {
        let done = self.done
        self.done = nil
        request = nil
        keepAlive = nil
        done?(result)
    }
}

// MARK: - Making the backend

@available(iOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(macOS, deprecated: 15.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(tvOS, deprecated: 18.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(watchOS, deprecated: 11.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
@available(visionOS, deprecated: 2.0, message: "StoreKit 1 is deprecated; use the StoreKit 2 backend")
extension StoreKit1Backend {
    /// A backend over `SKPaymentQueue.default()`, its observer registered:
    /// call it at launch, before anything else touches the store (StoreKit
    /// delivers unfinished transactions as soon as an observer is added; the
    /// backend keeps them until the queue connects). Call ``stop()`` when the
    /// app terminates (`applicationWillTerminate(_:)`), as Apple says; the
    /// observer is also removed when the backend is released.
    ///
    /// Apple-hosted content in `documents` storage is moved to the app's
    /// Documents folder on iOS, tvOS and watchOS; macOS manages those files
    /// itself, so there it stays where StoreKit put it.
    public static func onDefaultQueue(policy: CompiledPolicy) -> StoreKit1Backend {
        #if os(macOS)
        let documents: URL? = nil
        #else
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
        #endif
        let queue = SKPaymentQueue.default()
        let backend = StoreKit1Backend(policy: policy, paymentQueue: queue, receipt: AppleAppReceipt(),
                                       products: AppleProductsRequester(), documentsFolder: documents)
        backend.register(observer: StoreKit1TransactionObserver(backend: backend))
        return backend
    }
}
#endif
