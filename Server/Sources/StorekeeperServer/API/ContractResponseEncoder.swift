public import Hummingbird
import StorekeeperContract

/// The server contract's coders as Hummingbird's response encoder, on
/// ``ServerRequestContext``: JSON with sorted keys, dates as seconds with a
/// fraction (which StorekeeperJSON's values cannot hold), `Content-Type:
/// application/json`.
public struct ContractResponseEncoder: ResponseEncoder {
    /// The encoder.
    public init() {}

    /// `value` as a 200 answer.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let bytes = try ContractCoding.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension RequestContext where Encoder == ContractResponseEncoder {
    /// `value` as a JSON answer, through the context's encoder.
    func answer(to request: Request, _ value: some Encodable) throws -> Response {
        try responseEncoder.encode(value, from: request, context: self)
    }
}
