import StorekeeperContract
package import StorekeeperCore

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
package struct ServerReceiptValidator: ReceiptValidatorPlugin {
    /// `server`.
    package let name = "server"
    /// A server to ask.
    package var requirements: [StepRequirement] { [.server] }
    /// Creates the validator.
    package init() {}
    /// Asks the server.
    package func validate(_ context: StepContext) async throws(StepFailure) {
        guard let server = context.services.server else {
            throw .permanent("no server transport to verify receipts with; set EngineServices.server")
        }
        let request = try Self.request(for: context)
        let response = try await server.send(request)
        try response.check(request, doing: "verify transaction '\(context.transaction.id)'")
    }

    /// The request that verifies the context's transaction.
    static func request(for context: StepContext) throws(StepFailure) -> ServerRequest {
        if let signed = context.transaction.signedTransaction {
            let body = SignedTransactionBody(signedTransaction: signed)
            return ServerRequest(method: "POST", path: ServerPath.transactions, body: try encoded(body))
        }
        let body = ReceiptVerificationBody(transaction: context.transaction.id, product: context.product.id,
                                           receipt: context.transaction.receipt.map { Base64.encode($0) })
        return ServerRequest(method: "POST", path: ServerPath.receiptVerification, body: try encoded(body))
    }

    private static func encoded(_ body: some Encodable) throws(StepFailure) -> [UInt8] {
        do {
            return try ContractCoding.encode(body)
        } catch {
            // Strings only: unreachable, kept as a failure rather than a trap.
            throw .permanent("cannot write the verification request: \(error)")
        }
    }
}
