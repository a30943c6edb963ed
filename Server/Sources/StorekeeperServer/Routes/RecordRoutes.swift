import Foundation
import Hummingbird
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// The contract's record object (docs/server-contract.md, "The record object").
    struct RecordObject: Codable {
        var product: String
        var transaction: String
        var strategy: String
        var kind: String
        var quantity: Int?
        var receipt: String?
        var user: String?
        var purchaseDate: Double
        var expirationDate: Double?

        init(_ record: ServerRecord, user: String) {
            product = record.productID
            transaction = record.transactionID
            strategy = record.strategy
            kind = record.kind
            quantity = record.quantity
            receipt = record.receipt
            self.user = user
            purchaseDate = record.purchaseDate
            expirationDate = record.expirationDate
        }

        /// The record, or 400 naming the member that breaks the contract's rules.
        func validated() throws(APIError) -> ServerRecord {
            guard !product.isEmpty else { throw .badRequest("product: empty; it must name the product bought") }
            guard !transaction.isEmpty else { throw .badRequest("transaction: empty") }
            guard PersistenceStrategy(rawValue: strategy) != nil else {
                throw .badRequest("strategy: '\(strategy)' is not one of \(PersistenceStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard purchaseDate.isFinite else { throw .badRequest("purchaseDate: not a finite number of seconds") }
            if let expirationDate, !expirationDate.isFinite { throw .badRequest("expirationDate: not a finite number of seconds") }
            switch kind {
            case "flag":
                guard quantity == nil, receipt == nil else { throw .badRequest("a flag record has neither quantity nor receipt") }
            case "receipt":
                guard quantity == nil else { throw .badRequest("quantity: not allowed in a receipt record") }
                guard let receipt else { throw .badRequest("receipt: missing from a receipt record") }
                guard Data(base64Encoded: receipt) != nil else { throw .badRequest("receipt: not standard Base64 with padding") }
            case "transaction":
                guard receipt == nil else { throw .badRequest("receipt: not allowed in a transaction record") }
                guard let quantity else { throw .badRequest("quantity: missing from a transaction record") }
                guard quantity > 0 else { throw .badRequest("quantity: \(quantity); it must be positive") }
            default:
                throw .badRequest("kind: '\(kind)' is not flag, receipt or transaction")
            }
            return ServerRecord(
                transactionID: transaction, productID: product, strategy: strategy, kind: kind, quantity: quantity, receipt: receipt,
                purchaseDate: purchaseDate, expirationDate: expirationDate)
        }
    }

    struct RecordList: Encodable {
        var records: [RecordObject]
    }

    /// `PUT /v1/records/{transactionID}`: keeps the record for the authenticated user
    /// (201 when new, 200 when it replaced one); 400 when the body is not a record or its
    /// transaction is not the path's, 403 `user-mismatch` when it names another user, 409
    /// `too-many-records` when it would be one more than ``ServerLimits/recordsPerUser``.
    @Sendable func putRecord(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let id = try PathSegment.decode(context.parameters.get("transactionID")?[...] ?? "", what: "transaction id")
        let object = try await RequestBody.decode(RecordObject.self, from: request, context: context, shape: "a record object")
        guard object.transaction == id else {
            throw APIError.badRequest("transaction: the body's is '\(object.transaction)', the path's '\(id)'; they must be the same")
        }
        if let named = object.user, named != user {
            throw APIError(.forbidden, "user-mismatch", "the record's user is not the authenticated user")
        }
        let record = try object.validated()
        try await checkRecordLimit(of: user, adding: record.transactionID)
        _ = try await storage.register(user: user, appAccountToken: AppAccountToken.derive(fromUser: user).uuidString.lowercased())
        let write = try await storage.put(record, for: user)
        return Response(status: write == .created ? .created : .ok)
    }

    /// 409 `too-many-records` when `user` already keeps ``ServerLimits/recordsPerUser`` records and
    /// `transactionID` is not one of them. Checked before the write: PUTs of one user running at
    /// the same moment may pass the limit by as many as run at once, never more.
    private func checkRecordLimit(of user: String, adding transactionID: String) async throws {
        let limit = configuration.limits.recordsPerUser
        let (count, holds) = try await storage.recordCount(of: user, holding: transactionID)
        guard holds || count < limit else {
            throw APIError(
                .conflict, "too-many-records",
                "this user keeps \(count) records, the most this server keeps for one user (\(limit)); a record of a transaction already kept can still be replaced")
        }
    }

    /// `GET /v1/records`: the authenticated user's records, each naming the user.
    @Sendable func listRecords(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let records = try await storage.records(of: user)
        return try JSONResponse.make(RecordList(records: records.map { RecordObject($0, user: user) }))
    }
}
