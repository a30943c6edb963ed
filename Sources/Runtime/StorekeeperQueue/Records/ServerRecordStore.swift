import StorekeeperContract
import StorekeeperCore
public import StorekeeperRuntime

/// The client side of the `server` strategy: records kept on the app's
/// server, over the host's `ServerTransport`, as `docs/server-contract.md`
/// describes.
///
/// - ``keep(_:)`` sends `PUT /v1/records/{transactionID}` (the id
///   percent-encoded) with the record object as its body. The server keeps
///   one record per transaction id, so keeping a record again is harmless.
/// - ``records()`` sends `GET /v1/records` and reads `{"records": [...]}`:
///   the records of the user the transport's credential authenticates, and
///   no one else's.
///
/// A 2xx status succeeds; 401, 408, 429 and 5xx fail transiently; any other
/// status fails permanently, naming the request, the status and the server's
/// error code. A `GET` answer that is not the documented JSON fails
/// permanently, naming what is wrong. The transport's own failures pass
/// through unchanged.
public struct ServerRecordStore: RecordStore {
    /// The connection to the app's server.
    public var transport: any ServerTransport

    /// A store on the server `transport` reaches.
    public init(transport: any ServerTransport) {
        self.transport = transport
    }

    /// Sends the record to the server. The record's own
    /// `applicationUsername` is its `user`, which the server refuses (403
    /// `user-mismatch`) unless it is the authenticated user's id.
    ///
    /// - Throws: The transport's failure; a transient `StepFailure` for 401,
    ///   408, 429 and 5xx; a permanent one for other statuses that are not 2xx
    ///   and for records the contract cannot carry (an empty id, a date that
    ///   is not finite).
    public func keep(_ record: StoredRecord) async throws(StepFailure) {
        let body = try ContractCoding.encodeForStore(RecordObject(record), pretty: false)
        let request = ServerRequest(method: "PUT", path: ServerPath.record(record.transactionID), body: body)
        let response = try await transport.send(request)
        try response.check(request, doing: "keep the record of transaction '\(record.transactionID)'")
    }

    /// The records the server holds for the authenticated user.
    ///
    /// - Throws: The transport's failure; a transient `StepFailure` for 401,
    ///   408, 429 and 5xx; a permanent one for other statuses that are not 2xx
    ///   and for an answer that is not the documented JSON.
    public func records() async throws(StepFailure) -> [StoredRecord] {
        let request = ServerRequest(method: "GET", path: ServerPath.records)
        let response = try await transport.send(request)
        try response.check(request, doing: "list records")
        do throws(ContractError) {
            let list = try ContractCoding.decode(RecordList.self, from: response.body)
            var records: [StoredRecord] = []
            records.reserveCapacity(list.records.count)
            for (index, entry) in list.records.enumerated() {
                do throws(ContractError) {
                    records.append(try entry.record())
                } catch {
                    throw ContractError("records[\(index)]: \(error)")
                }
            }
            return records
        } catch {
            throw .permanent("the server's answer to GET \(request.path) is not the documented JSON: \(error)")
        }
    }
}
