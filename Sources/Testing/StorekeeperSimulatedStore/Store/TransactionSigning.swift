public import Foundation
public import StorekeeperCore

/// How the simulated store signs the transactions it delivers: the signer, and
/// the app (bundle identifier) and environment its payloads state. Given to
/// ``SimulatedAppStore`` at init or through ``SimulatedAppStore/setSigning(_:)``;
/// without it, transactions are delivered unsigned.
public struct TransactionSigning: Sendable {
    /// Makes the signed payloads.
    public var signer: any TransactionSigner
    /// The app's bundle identifier (the payload's `bundleId`).
    public var bundleID: String
    /// The environment the payloads state.
    public var environment: AppStoreEnvironment
    /// The `appAccountToken` of a payment's `applicationUsername`; nil for none.
    ///
    /// The server contract derives it from the user (a UUID version 5 of the
    /// user's id, docs/server-contract.md); until the runtime's own
    /// derivation is there, the caller gives it.
    public var appAccountToken: @Sendable (String) -> UUID?

    /// Signs with `signer` for the app `bundleID` in `environment`.
    ///
    /// - Parameters:
    ///   - signer: makes the signed payloads.
    ///   - bundleID: the app's bundle identifier.
    ///   - environment: the environment the payloads state (default sandbox).
    ///   - appAccountToken: the token of a user (default: the contract's
    ///     derivation, `AppAccountToken.derive(fromUser:)`, as the StoreKit 2
    ///     backend sets it on a payment).
    public init(signer: any TransactionSigner, bundleID: String, environment: AppStoreEnvironment = .sandbox,
                appAccountToken: @escaping @Sendable (String) -> UUID? = { AppAccountToken.derive(fromUser: $0) }) {
        self.signer = signer
        self.bundleID = bundleID
        self.environment = environment
        self.appAccountToken = appAccountToken
    }
}
