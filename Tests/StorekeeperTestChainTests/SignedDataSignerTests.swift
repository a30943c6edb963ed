import StorekeeperContract
import Crypto
import Foundation
import StorekeeperJSON
import StorekeeperTestChain
import Testing
import X509

/// The JWS's form, read back in Swift: the header, the payload as written,
/// an ES256 signature in JWS form (r and s, 64 bytes) by the leaf's key.
@Suite struct SignedDataSignerTests {
    @Test func theJWSHasTheHeaderThePayloadAndARawES256SignatureByTheLeaf() throws {
        let chain = try TestCertificateChain()
        let payload: JSONValue = ["transactionId": "1", "quantity": 2, "note": "a/b \"c\" é"]
        let text = try SignedDataSigner(chain: chain).sign(payload)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(!text.contains("="), "JWS parts carry no padding")

        let header = try #require(Base64URL.decode(parts[0]))
        #expect(String(decoding: header, as: UTF8.self) == JSONWriter(indentation: nil).serialize(["alg": "ES256", "x5c": .array(chain.x5c.map { .string($0) })]))
        let body = try #require(Base64URL.decode(parts[1]))
        #expect(String(decoding: body, as: UTF8.self) == #"{"transactionId":"1","quantity":2,"note":"a/b \"c\" é"}"#)

        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64, "ES256 in JWS is r || s, not DER")
        let leafKey = try #require(P256.Signing.PublicKey(chain.leaf.publicKey))
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(leafKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(!leafKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])x".utf8)))
    }

    @Test func compactJWSReadsItsPartsAndRefusesWhatIsNotOne() throws {
        let chain = try TestCertificateChain()
        let jws = try CompactJWS(parsing: try SignedDataSigner(chain: chain).sign(["a": 1]))
        #expect(try jws.payload == ["a": 1])
        #expect(try jws.header.members["alg"] == "ES256")
        let unsecured = try jws.unsecured()
        #expect(unsecured.encodedSignature.isEmpty)
        #expect(try unsecured.header.members["alg"] == "none")
        #expect(try unsecured.header.members["x5c"] == jws.header.members["x5c"])
        #expect(unsecured.description.hasSuffix("."))

        #expect(throws: TestChainError("a JWS in compact serialization has 3 parts separated by dots; this has 2")) {
            try CompactJWS(parsing: "abc.def")
        }
        #expect(throws: TestChainError("the JWS header is not base64url without padding")) {
            try CompactJWS(parsing: "ab+c.\(jws.encodedPayload).")
        }
        #expect(throws: TestChainError("the JWS payload is not a JSON object")) {
            try CompactJWS(parsing: "\(jws.encodedHeader).\(Base64URL.encode(Array("[1]".utf8))).")
        }
    }

    @Test func base64URLRoundTripsEveryLengthAndRefusesPaddingAndOtherAlphabets() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("+") && !text.contains("/") && !text.contains("="))
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
        }
        #expect(Base64URL.decode("YQ==") == nil)
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.decode("abcde") == nil)
    }
}
