import Foundation
package import StorekeeperContract
import StorekeeperCore
package import StorekeeperRuntime

/// A ``StoredRecord`` as the contract's record object, which the server's
/// records and the key-value files share, so that every strategy writes one shape.
extension RecordObject {
    /// The object for `record`; refuses what the object cannot say.
    package init(_ record: StoredRecord) throws(StepFailure) {
        guard !record.productID.isEmpty, !record.transactionID.isEmpty else {
            throw .permanent("a record needs a product id and a transaction id; got product '\(record.productID)', transaction '\(record.transactionID)'")
        }
        let purchase = record.purchaseDate.timeIntervalSince1970
        let expiration = record.expirationDate?.timeIntervalSince1970
        guard purchase.isFinite, expiration?.isFinite ?? true else {
            throw .permanent("the record of transaction '\(record.transactionID)' has a date that is not finite")
        }
        var quantity: Int?
        var receipt: String?
        let kind: Kind
        switch record.value {
        case .flag:
            kind = .flag
        case let .receipt(bytes):
            kind = .receipt
            receipt = Base64.encode(bytes)
        case let .transaction(id, count):
            // The object has one transaction id; a value naming another could not be read back as kept.
            guard id == record.transactionID else {
                throw .permanent("the record of transaction '\(record.transactionID)' holds transaction '\(id)'; a transaction record must hold its own transaction")
            }
            kind = .transaction
            quantity = count
        }
        self.init(product: record.productID, transaction: record.transactionID, strategy: record.strategy.rawValue, kind: kind.rawValue,
                  quantity: quantity, receipt: receipt, user: record.applicationUsername, purchaseDate: purchase, expirationDate: expiration)
    }

    /// The record this object describes.
    ///
    /// - Throws: What is wrong with it, naming the member.
    package func record() throws(ContractError) -> StoredRecord {
        let checked = try validate()
        let value: PersistenceRecord.Value
        switch checked.kind {
        case .flag: value = .flag
        case .receipt: value = .receipt(checked.receiptBytes ?? [])
        case .transaction: value = .transaction(id: transaction, quantity: quantity ?? 1)
        }
        return StoredRecord(strategy: checked.strategy, productID: product, value: value, transactionID: transaction,
                            applicationUsername: user, purchaseDate: Date(timeIntervalSince1970: purchaseDate),
                            expirationDate: expirationDate.map { Date(timeIntervalSince1970: $0) })
    }
}

extension ContractCoding {
    /// `value` encoded for a record store; a failure, unreachable for records
    /// (their dates are checked finite first), is a permanent step failure, not a trap.
    static func encodeForStore<Value: Encodable>(_ value: Value, pretty: Bool) throws(StepFailure) -> [UInt8] {
        do {
            return try encode(value, pretty: pretty)
        } catch {
            throw .permanent("cannot encode records as JSON: \(error)")
        }
    }
}
