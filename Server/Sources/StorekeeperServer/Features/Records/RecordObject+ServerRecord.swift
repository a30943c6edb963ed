import StorekeeperContract
import StorekeeperServerStorage

/// The contract's record object and the record the storage keeps.
extension RecordObject {
    /// The object for `record`, kept for `user`.
    init(_ record: ServerRecord, user: String) {
        self.init(product: record.productID, transaction: record.transactionID, strategy: record.strategy, kind: record.kind,
                  quantity: record.quantity, receipt: record.receipt, user: user, purchaseDate: record.purchaseDate,
                  expirationDate: record.expirationDate)
    }
}

extension ServerRecord {
    /// The record `object` describes, or 400 naming the member that breaks the contract's rules.
    init(validating object: RecordObject) throws(APIError) {
        do throws(ContractError) {
            _ = try object.validate()
        } catch {
            throw .badRequest(error.description)
        }
        self.init(transactionID: object.transaction, productID: object.product, strategy: object.strategy, kind: object.kind,
                  quantity: object.quantity, receipt: object.receipt, purchaseDate: object.purchaseDate, expirationDate: object.expirationDate)
    }
}
