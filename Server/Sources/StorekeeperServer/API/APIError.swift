import Hummingbird
import StorekeeperJSON

/// A refusal the server answers with the contract's error body,
/// `{"error":{"code":"kebab-case","message":"a sentence"}}`
/// (docs/server-contract.md, "Statuses and errors").
///
/// Routes throw it; ``ErrorMiddleware`` turns it, and every other error, into
/// such an answer, so that no answer of the server has another shape.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// For programs: kebab-case (`verification-failed`).
    public var code: String
    /// For people: what is wrong, and what would be right. Never holds a credential.
    public var message: String
    /// Headers the answer carries besides `Content-Type` (`Content-Range` on a 416).
    public var headers: HTTPFields

    /// A refusal with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "HTTP \(status.code) \(code): \(message)" }

    /// The answer: the status, the headers and the error body.
    public var response: Response {
        let body: JSONValue = ["error": ["code": .string(code), "message": .string(message)]]
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: JSONWriter(indentation: nil).serialize(body))))
    }
}

extension APIError {
    /// 400 `bad-request`: the request's body or path is not what the route reads.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad-request", message) }
    /// 401 `unauthenticated`.
    static func unauthenticated(_ message: String) -> APIError { APIError(.unauthorized, "unauthenticated", message) }
    /// 404 `not-found`.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not-found", message) }
    /// 503 `unavailable`: try again later.
    static func unavailable(_ message: String) -> APIError { APIError(.serviceUnavailable, "unavailable", message) }
}
