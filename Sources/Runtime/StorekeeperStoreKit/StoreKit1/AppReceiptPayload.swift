public import Foundation
public import StorekeeperQueue

/// The in-app purchases an app receipt lists, read from its bytes.
///
/// The receipt (Apple's Receipt Validation Programming Guide) is a PKCS #7
/// `SignedData` (ASN.1) whose content is a `SET` of attributes
/// `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`; each
/// in-app purchase is attribute 17, whose value is itself such a `SET`:
/// 1701 quantity, 1702 product identifier, 1703 transaction identifier,
/// 1704 purchase date, 1705 original transaction identifier, 1708
/// subscription expiration date, 1712 cancellation date; and the receipt's
/// own 12, its creation date (dates are RFC 3339
/// text; Apple's "Receipt Fields",
/// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html).
/// DER and BER (indefinite lengths, an `OCTET STRING` in pieces) are both
/// read, as receipts use both.
///
/// **Read, not verified.** The signature and Apple's certificate chain are
/// not checked (the runtime links no cryptography): a receipt forged on a
/// jailbroken device reads like a real one. What it unlocks is this device's
/// display of what the user owns; anything worth forging (server content,
/// server balances) is decided by the app's server, which verifies the
/// receipt (the `verify-receipt` step, `POST /v1/receipts/verify`).
public struct AppReceiptPayload: Sendable, Hashable {
    /// The in-app purchases listed, in the receipt's order, canceled ones (1712) left out.
    public let entries: [ReceiptEntry]
    /// The purchases listed as canceled (1712), in the receipt's order: each
    /// is as though it had never been made.
    public let cancellations: [ReceiptCancellation]
    /// Each listed transaction's original (1705), canceled ones included:
    /// a restore's or a renewal's purchase, which a refreshed receipt may list
    /// under its own identifier.
    public let originalTransactionIDs: [String: String]
    /// When the App Store made this receipt (field 12, Receipt Creation
    /// Date), if it says: what it lists is so as of then.
    public let creationDate: Date?

    /// Reads a receipt; throws ``AppReceiptError`` naming the byte where it
    /// stops making sense.
    public init(receipt bytes: [UInt8]) throws(AppReceiptError) {
        let reader = ASN1Reader(bytes)
        let contentInfo = try reader.element(at: 0, expecting: 0x30, what: "the receipt's ContentInfo SEQUENCE")
        let info = try reader.children(of: contentInfo)
        guard info.count >= 2, reader.content(of: info[0]) == ASN1Reader.signedDataOID else {
            throw AppReceiptError(offset: 0, reason: "not a PKCS #7 signedData receipt (its content type is not 1.2.840.113549.1.7.2)")
        }
        let signedData = try reader.only(in: info[1], expecting: 0x30, what: "SignedData")
        let parts = try reader.children(of: signedData)
        guard parts.count >= 3, parts[2].tag == 0x30 else {
            throw AppReceiptError(offset: signedData.start, reason: "SignedData has no encapsulated content SEQUENCE")
        }
        let encapsulated = try reader.children(of: parts[2])
        guard encapsulated.count >= 2, reader.content(of: encapsulated[0]) == ASN1Reader.dataOID, encapsulated[1].tag == 0xA0 else {
            throw AppReceiptError(offset: parts[2].start, reason: "the receipt's content is not data with a [0] payload")
        }
        let payload = try reader.octets(of: try reader.only(in: encapsulated[1], expecting: nil, what: "the payload OCTET STRING"))
        (entries, cancellations, originalTransactionIDs, creationDate) = try Self.inAppPurchases(payload)
    }

    /// The entries that count now: all but the auto-renewable periods (those with a Subscription
    /// Expiration Date, field 1708) a later period of the same subscription (the same Original Transaction
    /// Identifier, field 1705) supersedes, as StoreKit 2's `currentEntitlements` gives "the latest
    /// transaction for each auto-renewable subscription"
    /// (https://developer.apple.com/documentation/storekit/transaction/currententitlements): a crossgrade's
    /// earlier level does not stay owned until its own end. Canceled periods are not listed, so the period
    /// before a refunded one counts again; entries of the latest date all count (a restore's entry has the
    /// date of the period it restores).
    public var currentEntries: [ReceiptEntry] {
        var latest: [String: Date] = [:]
        for entry in entries where entry.expirationDate != nil {
            let subscription = originalTransactionIDs[entry.transactionID] ?? entry.transactionID
            latest[subscription] = max(latest[subscription] ?? entry.purchaseDate, entry.purchaseDate)
        }
        return entries.filter { entry in
            guard entry.expirationDate != nil, let last = latest[originalTransactionIDs[entry.transactionID] ?? entry.transactionID] else { return true }
            return entry.purchaseDate >= last
        }
    }

    /// The entry for a transaction (by its own identifier, field 1703), if
    /// the receipt lists it and it is not canceled.
    public func entry(transactionID: String) -> ReceiptEntry? {
        entries.first { $0.transactionID == transactionID }
    }

    private static func inAppPurchases(_ payload: [UInt8]) throws(AppReceiptError)
        -> ([ReceiptEntry], [ReceiptCancellation], [String: String], Date?) {
        let reader = ASN1Reader(payload)
        let set = try reader.element(at: 0, expecting: 0x31, what: "the payload's SET of attributes")
        var entries: [ReceiptEntry] = []
        var cancellations: [ReceiptCancellation] = []
        var originals: [String: String] = [:]
        var created: Date?
        for attribute in try attributes(in: set, reader: reader) where attribute.type == 17 || attribute.type == 12 {
            if attribute.type == 12 {
                created = try date(attribute)
                continue
            }
            let inner = ASN1Reader(attribute.value)
            let purchase = try inner.element(at: 0, expecting: 0x31, what: "an in-app purchase's SET")
            var productID: String?, transactionID: String?, originalID: String?, purchaseDate: Date?, expirationDate: Date?, cancellationDate: Date?
            for field in try attributes(in: purchase, reader: inner) {
                switch field.type {
                case 1702: productID = try text(field)
                case 1703: transactionID = try text(field)
                case 1704: purchaseDate = try date(field)
                case 1705: originalID = try text(field)
                case 1708: expirationDate = try date(field)
                case 1712: cancellationDate = try date(field)
                default: break
                }
            }
            guard let productID, let transactionID, let purchaseDate else {
                throw AppReceiptError(offset: purchase.start, reason: "an in-app purchase lacks its product (1702), transaction (1703) or purchase date (1704)")
            }
            if let originalID { originals[transactionID] = originalID }
            if let cancellationDate {
                cancellations.append(ReceiptCancellation(productID: productID, transactionID: transactionID, date: cancellationDate))
            } else {
                entries.append(ReceiptEntry(productID: productID, transactionID: transactionID, purchaseDate: purchaseDate, expirationDate: expirationDate))
            }
        }
        return (entries, cancellations, originals, created)
    }

    private struct Attribute {
        var type: Int
        var value: [UInt8]
        var offset: Int
    }

    private static func attributes(in set: ASN1Reader.Element, reader: ASN1Reader) throws(AppReceiptError) -> [Attribute] {
        var found: [Attribute] = []
        for element in try reader.children(of: set) {
            let fields = try reader.children(of: element)
            guard element.tag == 0x30, fields.count == 3, fields[0].tag == 0x02, fields[2].tag == 0x04 || fields[2].tag == 0x24 else {
                throw AppReceiptError(offset: element.start, reason: "an attribute is not SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }")
            }
            found.append(Attribute(type: try reader.integer(fields[0]), value: try reader.octets(of: fields[2]), offset: fields[2].start))
        }
        return found
    }

    /// A UTF8String, IA5String or PrintableString value.
    private static func text(_ attribute: Attribute) throws(AppReceiptError) -> String {
        let reader = ASN1Reader(attribute.value)
        let element = try reader.element(at: 0, expecting: nil, what: "attribute \(attribute.type)'s value")
        guard [0x0C, 0x16, 0x13].contains(element.tag), let text = String(validatingUTF8Bytes: reader.content(of: element)) else {
            throw AppReceiptError(offset: attribute.offset, reason: "attribute \(attribute.type) is not a string")
        }
        return text
    }

    /// An RFC 3339 date; nil for an empty one (a purchase that does not expire).
    private static func date(_ attribute: Attribute) throws(AppReceiptError) -> Date? {
        let text = try text(attribute)
        if text.isEmpty { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw AppReceiptError(offset: attribute.offset, reason: "attribute \(attribute.type) is not an RFC 3339 date: \"\(text)\"")
    }
}

/// A receipt that cannot be read: where, and why.
public struct AppReceiptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset (in the receipt, or in the attribute value being read) where reading stopped.
    public var offset: Int
    /// What was wrong there.
    public var reason: String
    /// "the app receipt at byte N: reason".
    public var description: String { "the app receipt at byte \(offset): \(reason)" }
}

private extension String {
    init?(validatingUTF8Bytes bytes: ArraySlice<UInt8>) {
        guard let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        self = text
    }
}
