import StorekeeperCore
import StorekeeperJSON

/// Validates a transaction with the app's server (docs/server-contract.md):
///
/// - when the store signed it (``TransactionInfo/signedTransaction``,
///   StoreKit 2's `jwsRepresentation`): `POST /v1/transactions` with
///   `{"signedTransaction": JWS}`, which the server verifies against the App
///   Store's signature;
/// - else `POST /v1/receipts/verify` with
///   `{"transaction": ID, "product": ID, "receipt": BASE64}`.
///
/// 2xx: valid; 401, 408, 429 and 5xx: try again later; any other status: not
/// valid, and the failure names the status and the server's error code.
public struct ServerReceiptValidator: ReceiptValidatorPlugin {
    /// `server`.
    public let name = "server"
    /// A server to ask.
    public var requirements: [StepRequirement] { [.server] }
    /// Creates the validator.
    public init() {}
    /// Asks the server.
    public func validate(_ context: StepContext) async throws(StepFailure) {
        guard let server = context.services.server else {
            throw .permanent("no server transport to verify receipts with; set EngineServices.server")
        }
        let request = Self.request(for: context)
        let response = try await server.send(request)
        try response.check(request, doing: "verify transaction '\(context.transaction.id)'")
    }

    /// The request that verifies the context's transaction.
    static func request(for context: StepContext) -> ServerRequest {
        let writer = JSONWriter(indentation: nil)
        if let signed = context.transaction.signedTransaction {
            let body: JSONValue = ["signedTransaction": .string(signed)]
            return ServerRequest(method: "POST", path: "/v1/transactions", body: Array(writer.serialize(body).utf8))
        }
        let body: JSONValue = [
            "transaction": .string(context.transaction.id),
            "product": .string(context.product.id),
            "receipt": context.transaction.receipt.map { .string(Base64.encode($0)) } ?? .null,
        ]
        return ServerRequest(method: "POST", path: "/v1/receipts/verify", body: Array(writer.serialize(body).utf8))
    }
}
