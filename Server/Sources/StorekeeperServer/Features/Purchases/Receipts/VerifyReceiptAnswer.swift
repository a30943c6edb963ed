import Foundation

/// The parts of `verifyReceipt`'s answer (Apple's `responseBody`) that the
/// server reads. Apple writes numbers in the receipt as strings
/// (`"purchase_date_ms": "1700000000000"`, `"quantity": "1"`); both forms are read.
struct VerifyReceiptAnswer: Decodable {
    var status: Int
    var isRetryable: Bool?
    var environment: String?
    var receipt: Receipt?
    var latestReceiptInfo: [InApp]?

    struct Receipt: Decodable {
        var bundleID: String?
        var inApp: [InApp]?
        /// When the App Store made the receipt.
        var receiptCreationDateMS: NumberText?
        /// When the App Store answered this request.
        var requestDateMS: NumberText?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case inApp = "in_app"
            case receiptCreationDateMS = "receipt_creation_date_ms"
            case requestDateMS = "request_date_ms"
        }
    }

    struct InApp: Decodable {
        var productID: String?
        var transactionID: NumberText?
        var originalTransactionID: NumberText?
        var purchaseDateMS: NumberText?
        var expiresDateMS: NumberText?
        var cancellationDateMS: NumberText?
        var quantity: NumberText?
        var appAccountToken: String?

        enum CodingKeys: String, CodingKey {
            case productID = "product_id"
            case transactionID = "transaction_id"
            case originalTransactionID = "original_transaction_id"
            case purchaseDateMS = "purchase_date_ms"
            case expiresDateMS = "expires_date_ms"
            case cancellationDateMS = "cancellation_date_ms"
            case quantity
            case appAccountToken = "app_account_token"
        }
    }

    enum CodingKeys: String, CodingKey {
        case status
        case isRetryable = "is-retryable"
        case environment
        case receipt
        case latestReceiptInfo = "latest_receipt_info"
    }

    /// A number Apple may write as a JSON string or a JSON number.
    struct NumberText: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else {
                self.text = String(try container.decode(Int64.self))
            }
        }

        var integer: Int64? { Int64(text) }
    }

    /// The purchases the receipt proves, one per transaction id (`latest_receipt_info` after
    /// `in_app`, so the latest wins), in transaction id order; a purchase lacking what the
    /// ledger needs throws, naming it. Each is dated by when Apple stated it
    /// (``ReceiptPurchase/statedDate``): an `in_app` entry by `receipt_creation_date_ms`, a
    /// `latest_receipt_info` entry by `request_date_ms`.
    func purchases() throws(UnreadablePurchase) -> [ReceiptPurchase] {
        var byID: [String: ReceiptPurchase] = [:]
        let created = receipt?.receiptCreationDateMS?.integer.map(Self.date)
        let requested = receipt?.requestDateMS?.integer.map(Self.date)
        let places = [("receipt.in_app", receipt?.inApp ?? [], created ?? requested), ("latest_receipt_info", latestReceiptInfo ?? [], requested ?? created)]
        for (place, entries, stated) in places {
            for (index, entry) in entries.enumerated() {
                var purchase = try Self.purchase(entry, at: "\(place)[\(index)]")
                purchase.statedDate = stated
                byID[purchase.transactionID] = purchase
            }
        }
        return byID.values.sorted { $0.transactionID < $1.transactionID }
    }

    struct UnreadablePurchase: Error, CustomStringConvertible {
        var description: String
    }

    private static func purchase(_ entry: InApp, at place: String) throws(UnreadablePurchase) -> ReceiptPurchase {
        guard let product = entry.productID, !product.isEmpty else { throw UnreadablePurchase(description: "\(place) has no product_id") }
        guard let id = entry.transactionID?.text, !id.isEmpty else { throw UnreadablePurchase(description: "\(place) has no transaction_id") }
        guard let purchased = entry.purchaseDateMS?.integer else {
            throw UnreadablePurchase(description: "\(place) has no purchase_date_ms in milliseconds since 1970")
        }
        let quantity = entry.quantity.map { $0.integer.map { Int(clamping: $0) } } ?? 1
        guard let quantity, quantity > 0 else { throw UnreadablePurchase(description: "\(place) has a quantity that is not a positive integer") }
        return ReceiptPurchase(
            productID: product, transactionID: id, originalTransactionID: entry.originalTransactionID?.text ?? id,
            purchaseDate: date(purchased), expiresDate: entry.expiresDateMS?.integer.map(date),
            cancellationDate: entry.cancellationDateMS?.integer.map(date), quantity: quantity,
            appAccountToken: entry.appAccountToken.flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}
