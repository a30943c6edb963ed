import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperSimulatedStore
import StorekeeperTestChain
import Testing
@testable import StorekeeperVerification

/// Input that is not App Store signed data is refused with a message saying
/// what is wrong, and never crashes or hangs the verifier.
@Suite struct MalformedInputTests {
    static func verifier(_ environment: SignedDataVerifier.Environment = .sandbox) throws -> (SignedDataVerifier, TestCertificateChain) {
        let chain = try OracleAgreementTests.corpus.get().chain
        return (try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: VerificationCorpus.bundleID, environment: environment), chain)
    }

    static func failure(_ jws: String, _ verifier: SignedDataVerifier) async -> VerificationFailure? {
        do {
            _ = try await verifier.verifyTransaction(jws)
            return nil
        } catch {
            return error
        }
    }

    static func segment(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test(arguments: [
        ("", "1 segment separated"),
        ("a.b", "2 segments"),
        ("a.b.c.d", "more than 3 segments"),
        ("!!!.e30.AA", "header segment is not base64url"),
        ("e30.e30=.AA", "payload segment is not base64url"),
        ("e30.e30.A", "signature segment is not base64url"),
        ("\(segment("{\"alg\":")).e30.AA", "header is not JSON"),
        ("\(segment("[]")).e30.AA", "header is JSON but not an object"),
        ("e30.\(segment("\"text\"")).AA", "payload is JSON but not an object"),
        ("e30.\(segment("{\"signedDate\":1.5}")).AA", "payload is not JSON"),
    ])
    func notAJWSIsRefusedSayingWhatIsWrong(jws: String, says: String) async throws {
        let (verifier, _) = try Self.verifier()
        let failure = try #require(await Self.failure(jws, verifier))
        #expect(failure.reason == .malformedJWS, "\(failure)")
        #expect(failure.message.contains(says), "\(failure)")
        #expect(failure.status == .verificationFailure)
    }

    @Test func inputOverTheSizeLimitIsRefusedBeforeDecoding() async throws {
        let (verifier, chain) = try Self.verifier()
        let payload = VerificationCorpus.transactions(environment: .sandbox)[0]
        guard case .object(var members) = payload.json else { throw PythonOracle.Failure(description: "not an object") }
        members.append((key: "padding", value: .string(String(repeating: "x", count: SignedDataVerifier.maximumSize))))
        let jws = try SignedDataSigner(chain: chain).sign(.object(members))
        let failure = try #require(await Self.failure(jws, verifier))
        #expect(failure.reason == .malformedJWS)
        #expect(failure.message.contains("more than the 65536 accepted"), "\(failure)")
        // Just under the limit, the same payload verifies: the limit is the size, not the padding.
        members[members.count - 1].value = .string(String(repeating: "x", count: 1_000))
        #expect(await Self.failure(try SignedDataSigner(chain: chain).sign(.object(members)), verifier) == nil)
    }

    @Test func membersOfTheWrongTypeAreRefusedByName() async throws {
        let (verifier, chain) = try Self.verifier()
        guard case .object(var members) = VerificationCorpus.transactions(environment: .sandbox)[0].json else { return }
        members.removeAll { $0.key == "price" }
        members.append((key: "price", value: "9.90"))
        let failure = try #require(await Self.failure(try SignedDataSigner(chain: chain).sign(.object(members)), verifier))
        #expect(failure.reason == .malformedPayload)
        #expect(failure.message == "the transaction's member 'price' is a string; expected an integer", "\(failure)")
    }

    @Test func missingMembersAreNilExceptWhatIsChecked() async throws {
        let (verifier, chain) = try Self.verifier()
        let signer = SignedDataSigner(chain: chain)
        guard case .object(let members) = VerificationCorpus.transactions(environment: .sandbox)[3].json else { return }
        let kept = members.filter { ["bundleId", "environment", "signedDate"].contains($0.key) }
        let transaction = try await verifier.verifyTransaction(try signer.sign(.object(kept)))
        #expect(transaction.productID == nil && transaction.price == nil && transaction.type == nil)
        #expect(transaction.signedDate == VerificationCorpus.signedDate)

        let failure = try #require(await Self.failure(try signer.sign(.object(kept.filter { $0.key != "environment" })), verifier))
        #expect(failure.reason == .wrongEnvironment)
        #expect(failure.message.contains("environment (none)"), "\(failure)")
        let noBundle = try #require(await Self.failure(try signer.sign(.object(kept.filter { $0.key != "bundleId" })), verifier))
        #expect(noBundle.reason == .wrongBundleID)
        #expect(noBundle.message == "the transaction is for the bundle id (none); this verifier expects 'com.example.verify'", "\(noBundle)")
    }

    @Test func randomBytesNeverCrash() async throws {
        let (verifier, _) = try Self.verifier()
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array("ABCabc012-_.=+/{}\"".utf8)
        for length in stride(from: 0, to: 600, by: 7) {
            var bytes: [UInt8] = []
            for _ in 0..<length { bytes.append(alphabet[random.next(below: alphabet.count)]) }
            let failure = await Self.failure(String(decoding: bytes, as: UTF8.self), verifier)
            #expect(failure?.message.isEmpty == false, "length \(length)")
        }
    }
}
