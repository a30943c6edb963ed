// The part of the original StoreKit (SKPaymentQueue and its peers) that
// Sources/Runtime/StorekeeperStoreKit/StoreKit1 uses: written by the StoreKit 1 backend.
//
// Each declaration is copied from Apple's documentation (the page is cited
// above it, under https://developer.apple.com/documentation/storekit/), with
// its availability and deprecation. Bodies are placeholders: this module is
// only compiled against, never run.
//
// What Linux cannot mirror:
// - NSObject and NSObjectProtocol are swift-corelibs-foundation's (no
//   Objective-C runtime, no @objc): the observer compiles as a plain subclass.
// - Optional protocol requirements: SKPaymentTransactionObserver and
//   SKRequestDelegate declare only their required methods here, so a
//   misspelt optional method would compile; StoreKit1ObserverNamesTests
//   checks the observer's method names against Apple's documentation instead.
// - iOS-only availability (`@available(iOS, deprecated: 18.0)`) is ignored
//   when compiling for Linux, so the deprecation marks are copied but not checked.
// - SKProductsRequest redeclares `delegate` with the narrower
//   SKProductsRequestDelegate type in Objective-C; Swift cannot override a
//   stored property's type, so here it keeps SKRequest's.
// - Bundle.appStoreReceiptURL is Foundation's: swift-corelibs-foundation
//   declares it too, so it is not mirrored here.
import Foundation

// skpaymentqueue
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKPaymentQueue: NSObject {
    // skpaymentqueue/default()
    open class func `default`() -> Self { self.init() }
    public required override init() { super.init() }
    // skpaymentqueue/add(_:)-4vct1
    open func add(_ payment: SKPayment) {}
    // skpaymentqueue/add(_:)-5ciz2
    open func add(_ observer: any SKPaymentTransactionObserver) {}
    // skpaymentqueue/remove(_:)
    open func remove(_ observer: any SKPaymentTransactionObserver) {}
    // skpaymentqueue/finishtransaction(_:)
    open func finishTransaction(_ transaction: SKPaymentTransaction) {}
    // skpaymentqueue/restorecompletedtransactions()
    open func restoreCompletedTransactions() {}
    // skpaymentqueue/restorecompletedtransactions(withapplicationusername:)
    open func restoreCompletedTransactions(withApplicationUsername username: String?) {}
    // skpaymentqueue/transactions
    open var transactions: [SKPaymentTransaction] { [] }
    // skpaymentqueue/start(_:)
    @available(iOS, introduced: 6.0, deprecated: 16.0)
    @available(macOS, introduced: 10.8, deprecated: 13.0)
    @available(tvOS, introduced: 9.0, deprecated: 16.0)
    @available(watchOS, introduced: 6.2, deprecated: 9.0)
    @available(visionOS, unavailable)
    open func start(_ downloads: [SKDownload]) {}
    // skpaymentqueue/pause(_:)
    @available(iOS, introduced: 6.0, deprecated: 16.0)
    @available(macOS, introduced: 10.8, deprecated: 13.0)
    @available(tvOS, introduced: 9.0, deprecated: 16.0)
    @available(watchOS, introduced: 6.2, deprecated: 9.0)
    @available(visionOS, unavailable)
    open func pause(_ downloads: [SKDownload]) {}
    // skpaymentqueue/resume(_:)
    @available(iOS, introduced: 6.0, deprecated: 16.0)
    @available(macOS, introduced: 10.8, deprecated: 13.0)
    @available(tvOS, introduced: 9.0, deprecated: 16.0)
    @available(watchOS, introduced: 6.2, deprecated: 9.0)
    @available(visionOS, unavailable)
    open func resume(_ downloads: [SKDownload]) {}
    // skpaymentqueue/cancel(_:)
    @available(iOS, introduced: 6.0, deprecated: 16.0)
    @available(macOS, introduced: 10.8, deprecated: 13.0)
    @available(tvOS, introduced: 9.0, deprecated: 16.0)
    @available(watchOS, introduced: 6.2, deprecated: 9.0)
    @available(visionOS, unavailable)
    open func cancel(_ downloads: [SKDownload]) {}
}

// skpayment
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKPayment: NSObject {
    // skpayment/productidentifier
    open var productIdentifier: String { "" }
    // skpayment/quantity
    open var quantity: Int { 1 }
    // skpayment/applicationusername
    open var applicationUsername: String? { nil }
    // skpayment/paymentdiscount (iOS 12.2, macOS 10.14.4, tvOS 12.2, watchOS 6.2, visionOS 1)
    open var paymentDiscount: SKPaymentDiscount? { nil }
}

// skpaymentdiscount: `init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber)`
// (iOS 12.2 to 18, macOS 10.14.4 to 15, tvOS 12.2 to 18, watchOS 6.2 to 11, visionOS 1 to 2)
@available(iOS, introduced: 12.2, deprecated: 18.0)
@available(macOS, introduced: 10.14.4, deprecated: 15.0)
@available(tvOS, introduced: 12.2, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKPaymentDiscount: NSObject {
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) { super.init() }
}

// skmutablepayment
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKMutablePayment: SKPayment {
    private var storedProductIdentifier = ""
    private var storedQuantity = 1
    private var storedApplicationUsername: String?
    override public init() { super.init() }
    // skmutablepayment/productidentifier
    override open var productIdentifier: String {
        get { storedProductIdentifier }
        set { storedProductIdentifier = newValue }
    }
    // skmutablepayment/quantity
    override open var quantity: Int {
        get { storedQuantity }
        set { storedQuantity = newValue }
    }
    // skmutablepayment/applicationusername
    override open var applicationUsername: String? {
        get { storedApplicationUsername }
        set { storedApplicationUsername = newValue }
    }
    private var storedPaymentDiscount: SKPaymentDiscount?
    // skmutablepayment/paymentdiscount (iOS 12.2, macOS 10.14.4, tvOS 12.2, watchOS 6.2, visionOS 1)
    override open var paymentDiscount: SKPaymentDiscount? {
        get { storedPaymentDiscount }
        set { storedPaymentDiscount = newValue }
    }
}

// skpaymenttransactionstate
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
public enum SKPaymentTransactionState: Int, @unchecked Sendable {
    case purchasing = 0
    case purchased = 1
    case failed = 2
    case restored = 3
    case deferred = 4
}

// skpaymenttransaction
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKPaymentTransaction: NSObject {
    // skpaymenttransaction/transactionstate
    open var transactionState: SKPaymentTransactionState { .purchasing }
    // skpaymenttransaction/transactionidentifier
    open var transactionIdentifier: String? { nil }
    // skpaymenttransaction/original
    open var original: SKPaymentTransaction? { nil }
    // skpaymenttransaction/payment
    open var payment: SKPayment { SKPayment() }
    // skpaymenttransaction/transactiondate
    open var transactionDate: Date? { nil }
    // skpaymenttransaction/error
    open var error: (any Error)? { nil }
    // skpaymenttransaction/downloads
    @available(iOS, introduced: 6.0, deprecated: 16.0)
    @available(macOS, introduced: 10.8, deprecated: 13.0)
    @available(tvOS, introduced: 9.0, deprecated: 16.0)
    @available(watchOS, introduced: 6.2, deprecated: 9.0)
    @available(visionOS, unavailable)
    open var downloads: [SKDownload] { [] }
}

// skdownloadstate
@available(iOS, introduced: 6.0, deprecated: 16.0)
@available(macOS, introduced: 10.8, deprecated: 13.0)
@available(tvOS, introduced: 9.0, deprecated: 16.0)
@available(watchOS, introduced: 6.2, deprecated: 9.0)
@available(visionOS, unavailable)
public enum SKDownloadState: Int, @unchecked Sendable {
    case waiting = 0
    case active = 1
    case paused = 2
    case finished = 3
    case failed = 4
    case cancelled = 5
}

// skdownloadtimeremainingunknown
@available(iOS, introduced: 6.0, deprecated: 16.0)
@available(macOS, introduced: 10.8, deprecated: 13.0)
@available(tvOS, introduced: 9.0, deprecated: 16.0)
@available(watchOS, introduced: 6.2, deprecated: 9.0)
@available(visionOS, unavailable)
public let SKDownloadTimeRemainingUnknown: TimeInterval = -1

// skdownload
@available(iOS, introduced: 6.0, deprecated: 16.0)
@available(macOS, introduced: 10.8, deprecated: 13.0)
@available(tvOS, introduced: 9.0, deprecated: 16.0)
@available(watchOS, introduced: 6.2, deprecated: 9.0)
@available(visionOS, unavailable)
open class SKDownload: NSObject {
    // skdownload/state
    open var state: SKDownloadState { .waiting }
    // skdownload/progress
    open var progress: Float { 0 }
    // skdownload/timeremaining
    open var timeRemaining: TimeInterval { SKDownloadTimeRemainingUnknown }
    // skdownload/contenturl
    open var contentURL: URL? { nil }
    // skdownload/error
    open var error: (any Error)? { nil }
    // skdownload/contentidentifier
    open var contentIdentifier: String { "" }
}

// skpaymenttransactionobserver (only the required method: see the top of this file)
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    // skpaymenttransactionobserver/paymentqueue(_:updatedtransactions:)
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
}

// skproduct
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKProduct: NSObject {
    // skproduct/productidentifier
    open var productIdentifier: String { "" }
    // skproduct/localizedtitle
    open var localizedTitle: String { "" }
    // skproduct/localizeddescription
    open var localizedDescription: String { "" }
    // skproduct/price
    open var price: NSDecimalNumber { .zero }
    // skproduct/pricelocale
    open var priceLocale: Locale { Locale(identifier: "en_US") }
}

// skrequestdelegate (its methods are optional: none declared here)
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
public protocol SKRequestDelegate: NSObjectProtocol {}

// skrequest
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(tvOS, introduced: 9.0, deprecated: 18.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKRequest: NSObject {
    // skrequest/delegate
    open weak var delegate: (any SKRequestDelegate)?
    // skrequest/start()
    open func start() {}
    // skrequest/cancel()
    open func cancel() {}
}

// skreceiptrefreshrequest
@available(iOS, introduced: 7.0, deprecated: 18.0)
@available(macOS, introduced: 10.9, deprecated: 15.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKReceiptRefreshRequest: SKRequest {
    // skreceiptrefreshrequest/init(receiptproperties:)
    public init(receiptProperties properties: [String: Any]?) { super.init() }
}

// skproductsresponse
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKProductsResponse: NSObject {
    // skproductsresponse/products
    open var products: [SKProduct] { [] }
    // skproductsresponse/invalidproductidentifiers
    open var invalidProductIdentifiers: [String] { [] }
}

// skproductsrequestdelegate
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    // skproductsrequestdelegate/productsrequest(_:didreceive:)
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

// skproductsrequest
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
@available(watchOS, introduced: 6.2, deprecated: 11.0)
@available(visionOS, introduced: 1.0, deprecated: 2.0)
open class SKProductsRequest: SKRequest {
    // skproductsrequest/init(productidentifiers:)
    public init(productIdentifiers: Set<String>) { super.init() }
}
