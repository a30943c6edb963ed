/// Signs the simulated store's transactions as the App Store signs StoreKit 2's:
/// a JWS in compact serialization, `Transaction.jwsRepresentation`.
///
/// The simulated store links no cryptography (it is part of the runtime an app
/// links); a signer comes from the app's or the server's tests. The
/// `StorekeeperTestChain` library has one, `TestChainTransactionSigner`, that
/// signs with a test certificate chain which Apple's verifiers accept when
/// given the chain's root. Give a signer to ``SimulatedAppStore`` through
/// ``TransactionSigning``.
public protocol TransactionSigner: Sendable {
    /// The signed transaction (JWS compact serialization) that states `facts`.
    ///
    /// - Throws: when it cannot sign; the store then delivers the transaction
    ///   unsigned and notes why in the trace.
    func signedTransaction(for facts: SignedTransactionFacts) throws -> String
}
