import Foundation
public import StorekeeperVerification

/// The App Store environments a server accepts signed transactions from, one
/// ``SignedDataVerifier`` each: a production server takes `Production` and,
/// when configured, `Sandbox`; `Xcode` payloads (not signed by the App Store)
/// are refused unless a verifier for them is configured.
///
/// A payload's verifier is picked by its unverified `environment` claim; that
/// verifier then checks the claim along with everything else, so a payload
/// cannot choose a verifier that would accept it falsely.
public struct TransactionVerifiers: Sendable, CustomStringConvertible {
    /// Why verifiers were refused.
    public struct Duplicate: Error, Sendable, Hashable, CustomStringConvertible {
        /// The environment given twice.
        public var environment: SignedDataVerifier.Environment
        public var description: String { "two transaction verifiers for the \(environment.rawValue) environment; give one each" }
    }

    /// The verifiers, by environment.
    public let byEnvironment: [SignedDataVerifier.Environment: SignedDataVerifier]
    private let first: SignedDataVerifier

    /// One verifier per environment; the first decides payloads whose environment cannot be read.
    public init(_ first: SignedDataVerifier, _ others: SignedDataVerifier...) throws(Duplicate) {
        var byEnvironment = [first.environment: first]
        for verifier in others {
            guard byEnvironment.updateValue(verifier, forKey: verifier.environment) == nil else { throw Duplicate(environment: verifier.environment) }
        }
        self.byEnvironment = byEnvironment
        self.first = first
    }

    /// The bundle ids the verifiers accept (one, in every configuration made by the executable).
    public var bundleIDs: Set<String> { Set(byEnvironment.values.map(\.bundleID)) }

    /// The environments accepted, in a stable order.
    public var environments: [SignedDataVerifier.Environment] {
        SignedDataVerifier.Environment.allCases.filter { byEnvironment[$0] != nil }
    }

    /// The verifier for `jws`'s claimed environment; when the claim names an environment
    /// not accepted, a failure naming it; when it cannot be read, the first verifier (which refuses the payload).
    func verifier(for jws: String) throws(VerificationFailure) -> SignedDataVerifier {
        guard let claimed = SignedDataVerifier.claimedEnvironment(of: jws) else { return first }
        guard let environment = SignedDataVerifier.Environment(rawValue: claimed), let verifier = byEnvironment[environment] else {
            throw VerificationFailure(
                .wrongEnvironment,
                "the transaction is from the \(claimed) environment; this server accepts \(environments.map(\.rawValue).joined(separator: ", "))")
        }
        return verifier
    }

    public var description: String { "TransactionVerifiers(\(environments.map(\.rawValue).joined(separator: ", ")))" }
}
