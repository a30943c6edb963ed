import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperRuntime

/// A ``StoredRecord`` as JSON: the record object of docs/server-contract.md.
/// The key-value files hold the same objects, so every strategy writes one
/// shape.
///
/// Coded with Foundation's `JSONEncoder` and `JSONDecoder` rather than the
/// project's `JSONWriter` and `JSONParser`: `JSONValue` has no fractional
/// numbers, and dates are seconds since 1970 as a `Double`.
struct RecordJSON: Codable, Hashable, Sendable {
    var product: String
    var transaction: String
    var strategy: String
    var kind: String
    var quantity: Int?
    /// Standard Base64 with padding.
    var receipt: String?
    var user: String?
    var purchaseDate: Double
    var expirationDate: Double?

    /// The object for `record`; refuses what the object cannot say.
    init(_ record: StoredRecord) throws(StepFailure) {
        guard !record.productID.isEmpty, !record.transactionID.isEmpty else {
            throw .permanent("a record needs a product id and a transaction id; got product '\(record.productID)', transaction '\(record.transactionID)'")
        }
        let purchase = record.purchaseDate.timeIntervalSince1970
        let expiration = record.expirationDate?.timeIntervalSince1970
        guard purchase.isFinite, expiration?.isFinite ?? true else {
            throw .permanent("the record of transaction '\(record.transactionID)' has a date that is not finite")
        }
        product = record.productID
        transaction = record.transactionID
        strategy = record.strategy.rawValue
        user = record.applicationUsername
        purchaseDate = purchase
        expirationDate = expiration
        switch record.value {
        case .flag:
            kind = "flag"
        case let .receipt(bytes):
            kind = "receipt"
            receipt = Data(bytes).base64EncodedString()
        case let .transaction(id, count):
            // The object has one transaction id; a value naming another could not be read back as kept.
            guard id == record.transactionID else {
                throw .permanent("the record of transaction '\(record.transactionID)' holds transaction '\(id)'; a transaction record must hold its own transaction")
            }
            kind = "transaction"
            quantity = count
        }
    }

    /// The record this object describes.
    ///
    /// - Throws: What is wrong with it, naming the member.
    func record() throws(RecordJSONError) -> StoredRecord {
        guard !product.isEmpty else { throw RecordJSONError("product: empty") }
        guard !transaction.isEmpty else { throw RecordJSONError("transaction: empty") }
        guard let strategy = PersistenceStrategy(rawValue: strategy) else {
            throw RecordJSONError("strategy: unknown strategy '\(strategy)'")
        }
        guard purchaseDate.isFinite else { throw RecordJSONError("purchaseDate: not a finite number") }
        guard expirationDate?.isFinite ?? true else { throw RecordJSONError("expirationDate: not a finite number") }
        let value: PersistenceRecord.Value
        switch kind {
        case "flag":
            guard quantity == nil, receipt == nil else {
                throw RecordJSONError("a flag record has no quantity or receipt")
            }
            value = .flag
        case "receipt":
            guard quantity == nil else { throw RecordJSONError("quantity: a receipt record has no quantity") }
            guard let receipt else { throw RecordJSONError("receipt: missing from a receipt record") }
            guard let bytes = Data(base64Encoded: receipt) else {
                throw RecordJSONError("receipt: not standard Base64 with padding")
            }
            value = .receipt(Array(bytes))
        case "transaction":
            guard receipt == nil else { throw RecordJSONError("receipt: a transaction record has no receipt") }
            guard let quantity else { throw RecordJSONError("quantity: missing from a transaction record") }
            value = .transaction(id: transaction, quantity: quantity)
        default:
            throw RecordJSONError("kind: expected \"flag\", \"receipt\" or \"transaction\", found '\(kind)'")
        }
        return StoredRecord(strategy: strategy, productID: product, value: value, transactionID: transaction,
                            applicationUsername: user, purchaseDate: Date(timeIntervalSince1970: purchaseDate),
                            expirationDate: expirationDate.map { Date(timeIntervalSince1970: $0) })
    }
}

/// Why JSON text is not what a record store expects: a sentence that names
/// the member at fault.
struct RecordJSONError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// The coders every record store uses, so files and requests agree byte for byte.
enum RecordCoding {
    /// Sorted keys, so that the same records always make the same bytes.
    static func encode<Value: Encodable>(_ value: Value, pretty: Bool) throws(StepFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            // Unreachable for the types coded here (dates are checked finite first); kept as a failure, not a trap.
            throw .permanent("cannot encode records as JSON: \(error)")
        }
    }

    /// Decodes `bytes`, describing a failure by the member at fault.
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(RecordJSONError) -> Value {
        guard !bytes.isEmpty else { throw RecordJSONError("empty, not JSON") }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw RecordJSONError(describe(error))
        } catch {
            throw RecordJSONError("not valid JSON: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .typeMismatch(type, context):
            return "\(place(context.codingPath)): expected \(name(of: type))"
        case let .valueNotFound(type, context):
            return "\(place(context.codingPath)): expected \(name(of: type)), found null"
        case let .keyNotFound(key, context):
            return "\(place(context.codingPath + [key])): missing"
        case let .dataCorrupted(context):
            guard context.codingPath.isEmpty else {
                return "\(place(context.codingPath)): \(context.debugDescription)"
            }
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON" + (detail.map { ": \($0)" } ?? "")
        @unknown default:
            return "\(error)"
        }
    }

    /// `records[2].purchaseDate`, or `the top level`.
    private static func place(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "the top level" : text
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
