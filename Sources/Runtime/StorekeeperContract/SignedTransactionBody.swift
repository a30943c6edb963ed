/// The body of `POST /v1/transactions`: a StoreKit 2 transaction as the App
/// Store signed it (its `jwsRepresentation`).
public struct SignedTransactionBody: Codable, Hashable, Sendable {
    /// The JWS, in compact serialization.
    public var signedTransaction: String

    /// The body, for the documentation and the 400's message.
    public static let shape = #"{"signedTransaction": "<JWS>"}"#

    /// A body carrying `signedTransaction`.
    package init(signedTransaction: String) { self.signedTransaction = signedTransaction }
}
