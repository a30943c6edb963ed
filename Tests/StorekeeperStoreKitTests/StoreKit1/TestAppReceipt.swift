import Foundation
@testable import StorekeeperStoreKit

/// Writes app receipts for the tests: ASN.1 (DER lengths, or BER's indefinite
/// ones) in the layout of Apple's "Receipt Fields"
/// (https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html):
/// a PKCS #7 `SignedData` whose payload is a `SET` of attributes, each in-app
/// purchase attribute 17 with its own fields. Unsigned (no signer infos): the
/// backend reads receipts, it does not verify them.
enum TestAppReceipt {
    static func element(_ tag: UInt8, _ content: [UInt8], indefinite: Bool = false) -> [UInt8] {
        if indefinite { return [tag, 0x80] + content + [0, 0] }
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }
    static func integer(_ value: Int) -> [UInt8] {
        value < 0x80 ? element(0x02, [UInt8(value)]) : element(0x02, [UInt8(value >> 8), UInt8(value & 0xFF)])
    }
    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        element(0x30, integer(type) + integer(1) + element(0x04, value))
    }
    static func utf8(_ text: String) -> [UInt8] { element(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { element(0x16, Array(text.utf8)) }

    /// One in-app purchase: 1701 quantity, 1702 product, 1703 transaction,
    /// 1704 purchase date, and when given 1705 original transaction, 1708
    /// subscription expiration date, 1712 cancellation date (RFC 3339 text).
    static func purchase(product: String, transaction: String, date: String, original: String? = nil, expires: String? = nil,
                         cancelled: String? = nil) -> [UInt8] {
        var fields = attribute(1701, integer(1)) + attribute(1702, utf8(product)) + attribute(1703, utf8(transaction))
            + attribute(1704, ia5(date))
        if let original { fields += attribute(1705, utf8(original)) }
        if let expires { fields += attribute(1708, ia5(expires)) }
        if let cancelled { fields += attribute(1712, ia5(cancelled)) }
        return attribute(17, element(0x31, fields))
    }

    /// The same, with dates.
    static func purchase(product: String, transaction: String, bought: Date, original: String? = nil, expires: Date? = nil,
                         cancelled: Date? = nil) -> [UInt8] {
        purchase(product: product, transaction: transaction, date: text(bought), original: original, expires: expires.map(text),
                 cancelled: cancelled.map(text))
    }

    /// A date as the receipt writes it (RFC 3339, UTC).
    static func text(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// A receipt: ContentInfo { signedData, [0] SignedData { version, digests, { data, [0] payload }, signers } }.
    static func receipt(_ purchases: [[UInt8]], indefinite: Bool = false) -> [UInt8] {
        let payload = element(0x31, attribute(2, utf8("com.example.rocketracer")) + purchases.joined())
        let octets = indefinite ? element(0x24, element(0x04, Array(payload.prefix(10))) + element(0x04, Array(payload.dropFirst(10))), indefinite: true)
            : element(0x04, payload)
        let encapsulated = element(0x30, element(0x06, Array(ASN1Reader.dataOID)) + element(0xA0, octets, indefinite: indefinite), indefinite: indefinite)
        let signedData = element(0x30, integer(1) + element(0x31, []) + encapsulated + element(0x31, []), indefinite: indefinite)
        return element(0x30, element(0x06, Array(ASN1Reader.signedDataOID)) + element(0xA0, signedData, indefinite: indefinite), indefinite: indefinite)
    }
}
