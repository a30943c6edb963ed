import Foundation
import Hummingbird
import StorekeeperContract
import StorekeeperCore
import StorekeeperServerStorage

extension ServerRoutes {
    /// `PUT /v1/records/{transactionID}`: keeps the record for the authenticated user
    /// (201 when new, 200 when it replaced one); 400 when the body is not a record or its
    /// transaction is not the path's, 403 `user-mismatch` when it names another user, 409
    /// `too-many-records` when it would be one more than ``ServerLimits/recordsPerUser``.
    @Sendable func putRecord(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let id = try PathSegment.decode(context.parameters.get("transactionID")?[...] ?? "", what: "transaction id")
        let object = try await request.decode(as: RecordObject.self, context: context)
        guard object.transaction == id else {
            throw APIError.badRequest("transaction: the body's is '\(object.transaction)', the path's '\(id)'; they must be the same")
        }
        if let named = object.user, named != user {
            throw APIError(.forbidden, .userMismatch, "the record's user is not the authenticated user")
        }
        let record = try ServerRecord(validating: object)
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
                .conflict, .tooManyRecords,
                "this user keeps \(count) records, the most this server keeps for one user (\(limit)); a record of a transaction already kept can still be replaced")
        }
    }

    /// `GET /v1/records`: the authenticated user's records, each naming the user.
    @Sendable func listRecords(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let records = try await storage.records(of: user)
        return try context.answer(to: request, RecordList(records: records.map { RecordObject($0, user: user) }))
    }
}

extension ServerRoutes {
    /// The records feature, under `/v1` behind client authentication: `PUT records/:transactionID`, `GET records`.
    var recordRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.put("records/:transactionID", use: putRecord)
        routes.get("records", use: listRecords)
        return routes
    }
}
