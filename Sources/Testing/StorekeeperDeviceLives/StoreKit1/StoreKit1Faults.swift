/// How often the model-driven StoreKit 1 misbehaves in the ways an observer must survive, as chances per
/// delivery. None of them changes what the App Store holds: they change how `paymentQueue(_:updatedTransactions:)`
/// hands it over.
///
/// - A transaction is delivered twice (in the same call, or again in the next one): StoreKit calls the observer
///   "every time your app launches or resumes from background" for the transactions in the queue
///   (https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)), so one
///   transaction reaches an observer more than once.
/// - Transactions delivered together come in any order: the observer gets "an array of the transactions that
///   were updated" with no order promised
///   (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:updatedtransactions:)),
///   and the receipt's `in_app` array "is not in chronological order"
///   (https://developer.apple.com/documentation/appstorereceipts/responsebody/receipt/in_app).
/// - A finished transaction is delivered again later (a new object, the same identifier): an observer must not
///   deliver a purchase twice whatever StoreKit repeats.
/// - The app is relaunched at any point (the driver's), and a crash may stop it right as it finishes a
///   transaction: what it left unfinished is delivered again at the next launch
///   (https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-5ciz2: "If an application quits
///   when transactions are still being processed, those transactions are not lost").
public struct StoreKit1Faults: Sendable, Hashable {
    /// A delivered transaction is delivered again.
    public var duplicate: Double
    /// Transactions delivered in one call are shuffled.
    public var reorder: Double
    /// A finished transaction is delivered again at the next delivery.
    public var afterFinish: Double
    /// The app crashes as it finishes a transaction (the journal closes at once, as the process's end would).
    public var crashAtFinish: Double

    /// Faults.
    public init(duplicate: Double, reorder: Double, afterFinish: Double, crashAtFinish: Double) {
        self.duplicate = duplicate
        self.reorder = reorder
        self.afterFinish = afterFinish
        self.crashAtFinish = crashAtFinish
    }

    /// Every fault, often enough that a short life meets several.
    public static let standard = StoreKit1Faults(duplicate: 0.15, reorder: 0.5, afterFinish: 0.1, crashAtFinish: 0.05)

    /// None: StoreKit as the happy path has it.
    public static let none = StoreKit1Faults(duplicate: 0, reorder: 0, afterFinish: 0, crashAtFinish: 0)
}
