/// A body a client sends, with its shape in words: a server's 400 says
/// what the body must be, not only what is wrong with it.
public protocol ContractRequestBody: Codable, Sendable {
    /// The body as the document writes it, for a refusal's message.
    static var shape: String { get }
}

extension SignedTransactionBody: ContractRequestBody {}
extension ReceiptVerificationBody: ContractRequestBody {}
extension SpendBody: ContractRequestBody {}

extension RecordObject: ContractRequestBody {
    /// Where the document describes it.
    public static var shape: String { "a record object (docs/server-contract.md, \"The record object\")" }
}
