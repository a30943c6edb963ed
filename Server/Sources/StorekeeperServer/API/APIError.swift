public import Hummingbird
public import StorekeeperContract

/// A refusal the server answers with the contract's error body,
/// `{"error":{"code":"kebab-case","message":"a sentence"}}`
/// (docs/server-contract.md, "Statuses and errors").
///
/// Routes throw it; ``ErrorMiddleware`` turns it, and every other error, into
/// such an answer, so that no answer of the server has another shape.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// For programs: kebab-case (`verification-failed`), one of ``ErrorCode``'s
    /// but for an HTTP failure of Hummingbird's own (`http-404`).
    public var code: String
    /// For people: what is wrong, and what would be right. Never holds a credential.
    public var message: String
    /// Headers the answer carries besides `Content-Type` (`Content-Range` on a 416).
    public var headers: HTTPFields

    /// A refusal with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, headers: HTTPFields = [:]) {
        self.init(status, rawCode: code.rawValue, message, headers: headers)
    }

    /// A refusal whose code is not one of the contract's own (an HTTP failure Hummingbird raised).
    init(_ status: HTTPResponse.Status, rawCode code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "HTTP \(status.code) \(code): \(message)" }

    /// The answer: the status, the headers and the error body.
    public var response: Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: ServerErrorBody(code: code, message: message).json)))
    }
}

extension APIError {
    /// 400 `bad-request`: the request's body or path is not what the route reads.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, .badRequest, message) }
    /// 401 `unauthenticated`.
    static func unauthenticated(_ message: String) -> APIError { APIError(.unauthorized, .unauthenticated, message) }
    /// 404 `not-found`.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, .notFound, message) }
    /// 503 `unavailable`: try again later.
    static func unavailable(_ message: String) -> APIError { APIError(.serviceUnavailable, .unavailable, message) }
}
