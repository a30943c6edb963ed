import StorekeeperCore
import StorekeeperRuntime

/// The client side of the `server` strategy: records kept on the app's
/// server, over the host's ``ServerTransport``, as `docs/server-contract.md`
/// describes.
///
/// - ``keep(_:)`` sends `PUT /records/{transactionID}` (the id
///   percent-encoded) with the record object as its body. The server keeps
///   one record per transaction id, so keeping a record again is harmless.
/// - ``records()`` sends `GET /records`, with `?user=` and the
///   percent-encoded ``applicationUsername`` when there is one, and reads
///   `{"records": [...]}`.
///
/// A 2xx status succeeds; 408, 429 and 5xx fail transiently; any other
/// status fails permanently, naming it. A `GET` answer that is not the
/// documented JSON fails permanently, naming what is wrong. The transport's
/// own failures pass through unchanged.
public struct ServerRecordStore: RecordStore {
    /// The connection to the app's server.
    public var transport: any ServerTransport
    /// The app's opaque name for the user, whose records ``records()`` asks
    /// for; `nil` asks for every record the server gives this app.
    public var applicationUsername: String?

    /// A store on the server `transport` reaches.
    public init(transport: any ServerTransport, applicationUsername: String? = nil) {
        self.transport = transport
        self.applicationUsername = applicationUsername
    }

    /// Sends the record to the server. The record's own
    /// `applicationUsername` is its `user`.
    ///
    /// - Throws: The transport's failure; a transient `StepFailure` for 408,
    ///   429 and 5xx; a permanent one for other statuses that are not 2xx and
    ///   for records the contract cannot carry (an empty id, a date that is
    ///   not finite).
    public func keep(_ record: StoredRecord) async throws(StepFailure) {
        let body = try RecordCoding.encode(RecordJSON(record), pretty: false)
        let path = "/records/\(Self.percentEncoded(record.transactionID))"
        let response = try await transport.send(ServerRequest(method: "PUT", path: path, body: body))
        try Self.check(response.status, doing: "keep the record of transaction '\(record.transactionID)'")
    }

    /// The records the server holds for ``applicationUsername``.
    ///
    /// - Throws: The transport's failure; a transient `StepFailure` for 408,
    ///   429 and 5xx; a permanent one for other statuses that are not 2xx and
    ///   for an answer that is not the documented JSON.
    public func records() async throws(StepFailure) -> [StoredRecord] {
        let path = applicationUsername.map { "/records?user=\(Self.percentEncoded($0))" } ?? "/records"
        let response = try await transport.send(ServerRequest(method: "GET", path: path))
        try Self.check(response.status, doing: "list records")
        do throws(RecordJSONError) {
            let list = try RecordCoding.decode(RecordList.self, from: response.body)
            var records: [StoredRecord] = []
            records.reserveCapacity(list.records.count)
            for (index, entry) in list.records.enumerated() {
                do throws(RecordJSONError) {
                    records.append(try entry.record())
                } catch {
                    throw RecordJSONError("records[\(index)]: \(error)")
                }
            }
            return records
        } catch {
            throw .permanent("the server's answer to GET \(path) is not the documented JSON: \(error)")
        }
    }

    /// The body of `GET /records`.
    private struct RecordList: Decodable {
        var records: [RecordJSON]
    }

    /// Maps a status as `ServerReceiptValidator` does: try again later only
    /// when the server says it is busy or cannot answer now.
    private static func check(_ status: Int, doing action: String) throws(StepFailure) {
        switch status {
        case 200..<300: return
        case 408, 429, 500..<600: throw .transient("the server could not \(action) now (HTTP \(status))")
        default: throw .permanent("the server refused to \(action) (HTTP \(status))")
        }
    }

    /// `text` with every byte of its UTF-8 other than RFC 3986's unreserved
    /// characters as `%XX`, so that it is one path segment or query value
    /// whatever it holds (`/`, `?`, `&`, spaces). A segment of only dots is
    /// encoded too, since `.` and `..` segments are removed from paths.
    static func percentEncoded(_ text: String) -> String {
        let dotsOnly = !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ".") where !dotsOnly:
                output.append(".")
            default:
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
