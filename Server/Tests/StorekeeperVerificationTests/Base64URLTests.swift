import Foundation
import StorekeeperVerification
import Testing

/// The server's one base64url (RFC 7515 section 2): what it writes is
/// Foundation's base64 with the URL alphabet and no padding, it reads back
/// every length, and it refuses what is not base64url.
@Suite struct Base64URLTests {
    @Test func encodingIsFoundationsWithTheURLAlphabetUnpaddedAndDecodingItsInverse() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected, "\(bytes)")
            #expect(Base64URL.decode(expected) == bytes)
        }
    }

    @Test(arguments: ["a", "ab=", "a+b/", "ab c", "AB==", "ab_é"])
    func whatIsNotUnpaddedBase64URLIsRefused(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func theClaimedEnvironmentIsReadFromThePayloadAlone() {
        let payload = Base64URL.encode(Array(#"{"environment":"Sandbox","transactionId":"1"}"#.utf8))
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(payload).c2ln") == "Sandbox")
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(Base64URL.encode(Array(#"{"environment":3}"#.utf8))).x") == nil)
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(payload)") == nil, "two segments are no JWS")
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.!!.c2ln") == nil)
        #expect(SignedDataVerifier.claimedEnvironment(of: String(repeating: "a", count: SignedDataVerifier.maximumSize + 1)) == nil)
    }
}
