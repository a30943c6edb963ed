/// The members of a signed transaction's payload the simulated server reads
/// (the App Store Server API's JWSTransactionDecodedPayload), peeked at
/// without verifying: the simulated server trusts its test store. Its wire
/// types are the contract's (StorekeeperContract), the same as the client's;
/// the JSON examples of docs/server-contract.md, decoded and re-encoded
/// through them in a test, keep both sides to the document.
struct PeekedTransaction: Decodable {
    var transactionId: String
    var originalTransactionId: String?
    var productId: String
    var environment: String?
    var appAccountToken: String?
    var quantity: Int?
    var expiresDate: Double?
}
