public import Foundation

/// One in-app purchase as the app receipt lists it (attribute 17), with the fields of Apple's "Receipt Fields"
/// (https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html)
/// and their JSON names of `responseBody.Receipt.In_app`
/// (https://developer.apple.com/documentation/appstorereceipts/responsebody/receipt/in_app).
public struct StoreKit1ReceiptLine: Sendable, Hashable {
    /// 1701 `quantity`.
    public var quantity: Int
    /// 1702 `product_id`.
    public var productID: String
    /// 1703 `transaction_id`: the `transactionIdentifier` of the transaction (a restore's own, new one).
    public var transactionID: String
    /// 1705 `original_transaction_id`: for a restore, the transaction it restores; for every period of an
    /// auto-renewable subscription, the chain's first; else the transaction itself.
    public var originalTransactionID: String
    /// 1704 `purchase_date`.
    public var purchaseDate: Date
    /// 1706 `original_purchase_date`.
    public var originalPurchaseDate: Date
    /// 1708 `expires_date`: auto-renewable subscriptions only.
    public var expiresDate: Date?
    /// 1711 `web_order_line_item_id`: auto-renewable subscriptions only.
    public var webOrderLineItemID: Int?
    /// 1712 `cancellation_date`: refunded, revoked from Family Sharing, or upgraded from.
    public var cancellationDate: Date?

    /// A line.
    public init(quantity: Int, productID: String, transactionID: String, originalTransactionID: String, purchaseDate: Date,
                originalPurchaseDate: Date, expiresDate: Date?, webOrderLineItemID: Int?, cancellationDate: Date?) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
    }
}

/// Writes an app receipt: a PKCS #7 `ContentInfo` of type signedData whose encapsulated content is the receipt
/// payload, a `SET` of attributes `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`, in the layout
/// of Apple's "Receipt Fields" (the page above): 2 bundle id (UTF8String), 12 receipt creation date, and one
/// attribute 17 per in-app purchase, whose value is itself such a `SET`. Dates are RFC 3339 text in an
/// IA5String (milliseconds kept: the JSON receipt's `_ms` fields carry them). DER throughout.
///
/// Unsigned (no certificates, no signer infos): the StoreKit 1 backend reads the receipt on the device, it does
/// not verify it (docs/storekit-backends.md, StoreKit 1).
public enum StoreKit1ReceiptEncoder {
    /// A receipt for `bundleID` listing `lines`, made at `created`.
    public static func receipt(bundleID: String, created: Date, lines: [StoreKit1ReceiptLine]) -> [UInt8] {
        var attributes = attribute(2, utf8(bundleID)) + attribute(12, ia5(text(created)))
        for line in lines { attributes += attribute(17, element(0x31, fields(of: line))) }
        let payload = element(0x31, attributes)
        let encapsulated = element(0x30, element(0x06, dataOID) + element(0xA0, element(0x04, payload)))
        let signedData = element(0x30, integer(1) + element(0x31, []) + encapsulated + element(0x31, []))
        return element(0x30, element(0x06, signedDataOID) + element(0xA0, signedData))
    }

    /// The fields of one in-app purchase.
    static func fields(of line: StoreKit1ReceiptLine) -> [UInt8] {
        var fields = attribute(1701, integer(line.quantity)) + attribute(1702, utf8(line.productID))
            + attribute(1703, utf8(line.transactionID)) + attribute(1704, ia5(text(line.purchaseDate)))
            + attribute(1705, utf8(line.originalTransactionID)) + attribute(1706, ia5(text(line.originalPurchaseDate)))
        if let expires = line.expiresDate { fields += attribute(1708, ia5(text(expires))) }
        if let webOrder = line.webOrderLineItemID { fields += attribute(1711, integer(webOrder)) }
        if let cancelled = line.cancellationDate { fields += attribute(1712, ia5(text(cancelled))) }
        return fields
    }

    /// 1.2.840.113549.1.7.2, PKCS #7 signedData.
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// 1.2.840.113549.1.7.1, PKCS #7 data.
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// A DER element: tag, definite length (short form below 128, else long form), content.
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        guard count >= 0x80 else { return [tag, UInt8(count)] + content }
        var length: [UInt8] = []
        var rest = count
        while rest > 0 {
            length.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [tag, 0x80 | UInt8(length.count)] + length + content
    }

    /// A DER INTEGER (two's complement, fewest bytes).
    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && bytes[0] & 0x80 == 0) && !(rest == -1 && bytes[0] & 0x80 != 0)
        return element(0x02, bytes)
    }

    /// `SEQUENCE { type, version 1, OCTET STRING value }`.
    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        element(0x30, integer(type) + integer(1) + element(0x04, value))
    }

    static func utf8(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { element(0x16, Array(text.utf8)) }

    /// RFC 3339 in UTC with milliseconds: `2026-01-05T10:00:00.123Z`.
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
