import Foundation
import Hummingbird

/// A JSON answer, encoded with Foundation's `JSONEncoder` with sorted keys
/// (dates are seconds with a fraction, which StorekeeperJSON's values cannot hold).
enum JSONResponse {
    /// `value` as the body of an answer with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
