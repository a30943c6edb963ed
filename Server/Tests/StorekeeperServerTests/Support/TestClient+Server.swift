import Foundation
import Hummingbird
import HummingbirdTesting

extension TestClientProtocol {
    /// Sends a request, with `Authorization: Bearer <token>` when a token is given.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        if body != nil { fields[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    /// The body as a JSON object (the tests' way to read answers; fractions included).
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
            throw HarnessError("the body is not a JSON object: \(String(buffer: body))")
        }
        return object
    }

    /// The error body's code, or nil when the body is not the contract's error object.
    func errorCode() -> String? {
        ((try? object())?["error"] as? [String: Any])?["code"] as? String
    }

    /// The error body's message.
    func errorMessage() -> String? {
        ((try? object())?["error"] as? [String: Any])?["message"] as? String
    }

    /// The body as text.
    var text: String { String(buffer: body) }
}
