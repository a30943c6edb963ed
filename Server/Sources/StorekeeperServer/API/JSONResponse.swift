import Hummingbird
import StorekeeperContract

/// A JSON answer, encoded with the contract's coders (sorted keys; dates are
/// seconds with a fraction, which StorekeeperJSON's values cannot hold).
enum JSONResponse {
    /// `value` as the body of an answer with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let bytes = try ContractCoding.encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
