import StorekeeperCore
import StorekeeperJSON

/// Validates receipts with the app's server: `POST /receipts/verify` with
/// `{"transaction": ID, "product": ID, "receipt": BASE64}`. 2xx: valid; 408,
/// 429 and 5xx: try again later; any other status: not valid.
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
        let body: JSONValue = [
            "transaction": .string(context.transaction.id),
            "product": .string(context.product.id),
            "receipt": context.transaction.receipt.map { .string(Base64.encode($0)) } ?? .null,
        ]
        let response = try await server.send(ServerRequest(method: "POST", path: "/receipts/verify",
                                                           body: Array(JSONWriter(indentation: nil).serialize(body).utf8)))
        switch response.status {
        case 200..<300: return
        case 408, 429, 500..<600: throw .transient("the server could not verify the receipt now (HTTP \(response.status))")
        default: throw .permanent("the server found the receipt not valid (HTTP \(response.status))")
        }
    }
}
