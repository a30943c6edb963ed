import Foundation
import StorekeeperContract
import Testing

/// Storekeeper's one Base64 (RFC 4648) and base64url (RFC 7515 section 2):
/// what they write is Foundation's encoding (the URL alphabet unpadded for
/// base64url), they read back every length, and they refuse what is not theirs.
@Suite struct Base64Tests {
    static func randomBytes(_ length: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func base64URLIsFoundationsWithTheURLAlphabetUnpaddedAndDecodingItsInverse() {
        for length in 0..<70 {
            let bytes = Self.randomBytes(length)
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

    @Test func standardBase64IsFoundationsAndDecodingItsInverse() {
        for length in 0..<70 {
            let bytes = Self.randomBytes(length)
            let expected = Data(bytes).base64EncodedString()
            #expect(Base64.encode(bytes) == expected, "\(bytes)")
            #expect(Base64.decode(expected) == bytes)
        }
    }

    @Test(arguments: ["a", "ab", "YQ", "YR==", "a-b_", "ab c", "====", "YQ==="])
    func whatIsNotPaddedStandardBase64IsRefused(_ text: String) {
        #expect(Base64.decode(text) == nil, "Foundation reads it as \(Data(base64Encoded: text).map(Array.init) as Any)")
    }

    @Test func aJWSPayloadIsPeekedWithoutItsSignatureBeingChecked() {
        struct Payload: Decodable, Equatable { var transactionId: String }
        let payload = Base64URL.encode(Array(#"{"transactionId":"7"}"#.utf8))
        #expect(JWSPayload.peek(Payload.self, in: "e30.\(payload).c2ln") == Payload(transactionId: "7"))
        #expect(JWSPayload.peek("e30.\(payload)") == nil, "two segments are no JWS")
        #expect(JWSPayload.peek("e30.\(payload).") == nil, "an empty signature is an unsecured JWS")
        #expect(JWSPayload.peek("e30.!!.c2ln") == nil)
        #expect(JWSPayload.peek(Payload.self, in: "e30.e30.c2ln") == nil, "a payload without the member")
    }
}
