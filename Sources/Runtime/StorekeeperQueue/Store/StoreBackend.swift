public import Foundation
public import StorekeeperCore
public import StorekeeperRuntime

/// The store the queue talks to: Apple's App Store through a StoreKit
/// adapter on Apple platforms, the simulated store in tests and simulations.
///
/// A backend keeps its own record of which transactions are unfinished,
/// outside the app (as the App Store does): whatever happens to the app, an
/// unfinished transaction is delivered again when the queue connects, until
/// ``finish(transactionID:)`` succeeds for it.
public protocol StoreBackend: Sendable {
    /// Starts delivering events to `sink`: first every unfinished
    /// transaction (in the order the store holds them), then each update as
    /// it happens. Called once per queue start, after the queue's observers
    /// are registered and its journal replayed.
    func connect(_ sink: StoreEventSink) async

    /// Asks the store to process a payment; its transactions arrive through the sink.
    /// The queue calls it only for a payment it checked (product, quantity,
    /// offer): a backend never buys on its own, promoted purchases included.
    func add(_ payment: Payment) async

    /// Tells the store the transaction is done: it is not delivered again.
    /// Finishing a transaction already finished does nothing. Throws
    /// `StepFailure` when the store cannot be reached (transient).
    func finish(transactionID: String) async throws(StepFailure)

    /// Asks the store to deliver every completed transaction again as
    /// `restored`; the end of the restore arrives as a ``StoreEvent``.
    func restoreCompletedTransactions(applicationUsername: String?) async

    /// The app receipt's entries: the store's own record of purchases (what
    /// the `receipt` persistence strategy reads).
    func receiptEntries() async -> [ReceiptEntry]
}

/// Where a store backend delivers its events: the queue's inbox. Sending
/// never blocks; the queue handles events in the order they were sent.
public struct StoreEventSink: Sendable {
    let inbox: Inbox

    /// Delivers an event to the queue.
    public func send(_ event: StoreEvent) {
        inbox.send(.store(event))
    }

    /// Delivers several events at once: the queue sees all of them or none
    /// yet, so how it batches them does not depend on timing (a simulated
    /// store's session is then the same from run to run).
    public func send(contentsOf events: [StoreEvent]) {
        inbox.send(contentsOf: events.map { .store($0) })
    }
}

/// What a store backend tells the queue.
public enum StoreEvent: Sendable, Hashable {
    /// A transaction changed state (or is delivered again).
    case updated(StoreTransaction)
    /// A restore delivered every transaction it had.
    case restoreFinished
    /// A restore failed.
    case restoreFailed(StoreErrorCode)
    /// A purchase was taken back after it was delivered (a refund, or family
    /// sharing stopped): what it and the transactions listed with it
    /// delivered is removed. Sending the same revocation again is harmless.
    case revoked(StoreRevocation)
    /// A revocation was reversed (the App Store's `REFUND_REVERSED`): what it
    /// took is given back. One for a transaction the queue holds no
    /// revocation of changes nothing, so a backend may send one whenever a
    /// transaction arrives unrevoked.
    case reinstated(StoreReinstatement)
    /// The user started a purchase outside the app (a promoted in-app
    /// purchase): nothing is bought yet. The queue checks it as it checks a
    /// payment the app adds, asks the app, and hands it back to the backend's
    /// ``StoreBackend/add(_:)`` only if both agree.
    case promoted(PromotedPurchase)
}

/// A transaction as the store reports it: what steps see, plus what the
/// store alone knows (dates, the original of a restored transaction).
public struct StoreTransaction: Sendable, Hashable {
    /// What the plan's steps see.
    public var info: TransactionInfo
    /// For a period of an auto-renewable subscription (bought, renewed or
    /// restored), the subscription's original transaction (StoreKit 2's
    /// `originalID`), which all its periods share: the queue lets only the
    /// latest period that stands own its product. For another restored
    /// transaction, the transaction it restores.
    public var originalID: String?
    /// When it was bought (for a restore, when the original was).
    public var purchaseDate: Date
    /// When a subscription it starts or renews ends, if the store says.
    public var expirationDate: Date?
    /// When the billing grace period after `expirationDate` ends, if the
    /// subscription is in one as the store delivers it: the store's status
    /// now, not a fact of the transaction, so the queue keeps it in memory
    /// only, until the store's entitlements are read again (a grace period
    /// can end early, as when the subscriber turns auto-renew off).
    public var gracePeriodEnd: Date?

    /// Describes a transaction.
    public init(_ info: TransactionInfo, originalID: String? = nil, purchaseDate: Date = Date(), expirationDate: Date? = nil,
                gracePeriodEnd: Date? = nil) {
        self.info = info
        self.originalID = originalID
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.gracePeriodEnd = gracePeriodEnd
    }

    /// The store's identifier: the key of the journal and of every effect.
    public var id: String { info.id }
}

/// A request to buy: a product, how many, the app's opaque name for the
/// user, and the subscription offer it redeems, if any.
public struct Payment: Sendable, Hashable {
    /// The product identifier.
    public var productID: String
    /// How many (1 up to the product's `max-quantity`).
    public var quantity: Int
    /// The app's opaque, stable name for the user's account (never the account name itself).
    public var applicationUsername: String?
    /// The promotional or win-back offer the purchase redeems: one the
    /// catalog declares for the product, else the queue refuses the payment.
    public var offer: PaymentOffer?

    /// Creates a payment.
    public init(productID: String, quantity: Int = 1, applicationUsername: String? = nil, offer: PaymentOffer? = nil) {
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.offer = offer
    }
}

/// One purchase the app receipt lists.
public struct ReceiptEntry: Sendable, Hashable {
    /// The product.
    public var productID: String
    /// The transaction.
    public var transactionID: String
    /// When it was bought.
    public var purchaseDate: Date
    /// When a subscription ends, for subscriptions.
    public var expirationDate: Date?

    /// Creates an entry.
    public init(productID: String, transactionID: String, purchaseDate: Date, expirationDate: Date? = nil) {
        self.productID = productID
        self.transactionID = transactionID
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
    }
}
