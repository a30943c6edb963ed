import Crypto
import Foundation
import StorekeeperContract
import StorekeeperJSON

/// Verifies App Store signed data: StoreKit 2 transactions, subscription
/// renewal info and App Store Server Notifications V2, each a JWS signed
/// with ES256 under an `x5c` chain that leads to Apple's root.
///
/// It decides as Apple's App Store Server Library does with online checks
/// off (its order of checks, the same ``AppleVerificationStatus`` for every
/// refusal), each step refusing with a ``VerificationFailure`` that names
/// what failed:
///
/// 1. the JWS: at most ``maximumSize`` bytes, three base64url segments, a
///    header and a payload that are JSON objects;
/// 2. the header: an `x5c` chain, and `alg` `ES256` (never `none`);
/// 3. the chain: exactly three certificates; the leaf and the intermediate
///    verified to one of the trusted roots with RFC 5280's checks at the
///    payload's `signedDate` (now, if it has none), the leaf carrying Apple's
///    OID 1.2.840.113635.100.6.11.1 and the intermediate 1.2.840.113635.100.6.2.1;
/// 4. the signature, with the leaf's P-256 key over the segments as sent;
/// 5. the payload: its members' types, then the bundle id (transactions and
///    notifications), the app Apple id (notifications, in production) and
///    the environment.
///
/// Payloads of the ``Environment/xcode`` and ``Environment/localTesting``
/// environments are not signed by the App Store: as Apple's library does, a
/// verifier for those environments skips steps 2 to 4. Never configure one
/// for a route that takes real purchases.
///
/// Chains verified are cached (at most 32, each for the time its
/// certificates are valid), so that payloads from one chain cost one
/// signature check; decisions on payloads are never cached.
///
/// ```swift
/// let verifier = try SignedDataVerifier(bundleID: "com.example.game", environment: .production, appAppleID: 1_234_567_890)
/// let transaction = try await verifier.verifyTransaction(signedTransaction)
/// ```
public struct SignedDataVerifier: Sendable {
    /// The largest signed data accepted, in bytes: 64 KiB. The App Store's
    /// are about 4 KiB (three certificates in the header); larger input is
    /// refused before it is decoded.
    public static let maximumSize = 64 << 10

    /// The app's bundle identifier.
    public let bundleID: String
    /// The environment accepted.
    public let environment: Environment
    /// The app's App Store id (required in production).
    public let appAppleID: Int64?
    let chains: ChainVerifier
    /// Headers decoded, by their bytes: one per chain the App Store signs with.
    let headers = ParsedHeaderCache(capacity: 8)

    /// A verifier trusting `trustedRoots`.
    ///
    /// - Parameters:
    ///   - trustedRoots: DER certificates of the roots trusted; at least one.
    ///   - bundleID: The app's bundle identifier, which every transaction and notification must carry.
    ///   - environment: The environment accepted; payloads of another are refused.
    ///   - appAppleID: The app's App Store id; required for ``Environment/production``, where
    ///     notifications must carry it.
    /// - Throws: A ``ConfigurationError`` for no roots, a root that is not a DER certificate, or
    ///   production without `appAppleID`.
    public init(trustedRoots: [[UInt8]], bundleID: String, environment: Environment, appAppleID: Int64? = nil) throws(ConfigurationError) {
        if environment == .production, appAppleID == nil {
            throw ConfigurationError("appAppleID is required in production: notifications there are checked against the app's App Store id")
        }
        chains = try ChainVerifier(trustedRoots: trustedRoots)
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// A verifier trusting Apple Root CA - G3 (``appleRootCAG3()``), the root of the App Store's chains.
    ///
    /// - Throws: A ``ConfigurationError`` for production without `appAppleID`, or when the
    ///   bundled root cannot be read.
    public init(bundleID: String, environment: Environment, appAppleID: Int64? = nil) throws(ConfigurationError) {
        try self.init(trustedRoots: [try Self.appleRootCAG3()], bundleID: bundleID, environment: environment, appAppleID: appAppleID)
    }

    /// The `environment` member of `jws`'s payload, read without verifying
    /// anything (only the payload segment is decoded): to pick the verifier
    /// of that environment, which then checks the claim with the rest. Nil
    /// when the JWS is larger than ``maximumSize``, not three segments, or
    /// its payload has no string `environment`.
    public static func claimedEnvironment(of jws: String) -> String? {
        guard jws.utf8.count <= maximumSize else { return nil }
        let bytes = Array(jws.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
              let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
              let json = Base64URL.decode(bytes: bytes[(first + 1)..<second]),
              case .object(let members)? = try? claimParser.parse(json),
              case .string(let environment)? = members.first(where: { $0.key == "environment" })?.value
        else { return nil }
        return environment
    }

    private static let claimParser = JSONParser(maxDepth: 16, maxSize: maximumSize)


    /// Verifies a StoreKit 2 transaction (`signedTransactionInfo`, a device's `jwsRepresentation`):
    /// signature and chain, then bundle id, then environment.
    public func verifyTransaction(_ jws: String) async throws(VerificationFailure) -> VerifiedTransaction {
        let payload = try await verifiedPayload(jws, what: "transaction")
        let transaction = try VerifiedTransaction(payload, environment: environment, bundleID: bundleID)
        let bundle = try payload.string("bundleId")
        guard bundle == bundleID else {
            throw VerificationFailure(.wrongBundleID, "the transaction is for the bundle id \(Self.quoted(bundle)); this verifier expects '\(bundleID)'")
        }
        try checkEnvironment(try payload.string("environment"), of: "transaction")
        return transaction
    }

    /// Verifies a subscription's renewal info (`signedRenewalInfo`): signature and chain, then
    /// environment (renewal info carries no bundle id).
    public func verifyRenewalInfo(_ jws: String) async throws(VerificationFailure) -> VerifiedRenewalInfo {
        let payload = try await verifiedPayload(jws, what: "renewal info")
        let renewal = try VerifiedRenewalInfo(payload, environment: environment)
        try checkEnvironment(try payload.string("environment"), of: "renewal info")
        return renewal
    }

    /// Verifies an App Store Server Notification V2 (`signedPayload`): signature and chain, then
    /// bundle id and (in production) app Apple id, then environment. The transaction and renewal
    /// info it carries are not verified with it (as in Apple's library): verify them in turn.
    public func verifyNotification(_ jws: String) async throws(VerificationFailure) -> VerifiedNotification {
        let payload = try await verifiedPayload(jws, what: "notification")
        let notification = try VerifiedNotification(payload)
        let addressee = notification.addressee
        guard addressee.bundleID == bundleID else {
            throw VerificationFailure(
                .wrongBundleID, "the notification is for the bundle id \(Self.quoted(addressee.bundleID)); this verifier expects '\(bundleID)'")
        }
        if environment == .production, addressee.appAppleID != appAppleID {
            throw VerificationFailure(
                .wrongAppAppleID,
                "the notification is for the app Apple id \(addressee.appAppleID.map(String.init) ?? "(none)"); this verifier expects \(appAppleID.map(String.init) ?? "(none)")")
        }
        try checkEnvironment(addressee.environment, of: "notification")
        return notification
    }

    // MARK: Steps

    /// The payload of `jws` once its header, chain and signature are verified (steps 1 to 4).
    private func verifiedPayload(_ jws: String, what: String) async throws(VerificationFailure) -> PayloadReader {
        let parts = try SignedDataParts(jws, what: what, headers: headers)
        let payload = PayloadReader(members: parts.payload, place: what)
        guard environment.isSignedByTheAppStore else { return payload }

        let x5c: [String]
        switch parts.header["x5c"] {
        case nil, .null?, .array([])?:
            throw VerificationFailure(.missingCertificateChain, "the signed \(what)'s header has no x5c certificate chain")
        case .array(let items)?:
            x5c = try items.map { item throws(VerificationFailure) in
                guard case .string(let certificate) = item else {
                    throw VerificationFailure(.malformedJWS, "the signed \(what)'s header has an x5c entry that is not a string")
                }
                return certificate
            }
        case _?:
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s header has an x5c that is not an array of certificates")
        }
        guard case .string("ES256")? = parts.header["alg"] else {
            let found = parts.header["alg"].map { JSONWriter(indentation: nil).serialize($0) } ?? "(none)"
            throw VerificationFailure(.unsupportedAlgorithm, "the signed \(what)'s header has alg \(found); the App Store signs with ES256 only")
        }

        let time = try Self.validationTime(payload, what: what)
        let key = try await chains.signingKey(x5c: x5c, at: time)
        guard parts.signature.count == 64,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature),
              key.isValidSignature(signature, for: SHA256.hash(data: parts.signingInput)) else {
            throw VerificationFailure(
                .invalidSignature,
                "the signed \(what)'s signature (\(parts.signature.count) bytes) does not verify with the leaf certificate's key over its header and payload")
        }
        return payload
    }

    /// When the chain must be valid: the payload's `signedDate` (else `receiptCreationDate`), in
    /// whole seconds as Apple's library takes it; now if it has neither.
    private static func validationTime(_ payload: PayloadReader, what: String) throws(VerificationFailure) -> Date {
        var milliseconds: Int64?
        do throws(VerificationFailure) {
            milliseconds = try payload.integer("signedDate")
            if milliseconds == nil { milliseconds = try payload.integer("receiptCreationDate") }
        } catch {
            throw VerificationFailure(.malformedJWS, "the signed \(what)'s signedDate is not milliseconds since 1970: \(error.message)")
        }
        guard let milliseconds else { return Date() }
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : -((-milliseconds + 999) / 1_000)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private func checkEnvironment(_ found: String?, of what: String) throws(VerificationFailure) {
        guard found == environment.rawValue else {
            throw VerificationFailure(
                .wrongEnvironment, "the \(what) is from the environment \(Self.quoted(found)); this verifier accepts '\(environment.rawValue)' only")
        }
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "'\($0)'" } ?? "(none)"
    }
}
