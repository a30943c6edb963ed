import StorekeeperContract
import StorekeeperVerification
import Testing

/// The environment a JWS claims, read before verifying to choose the verifier
/// (base64url itself is StorekeeperContract's, tested there).
@Suite struct ClaimedEnvironmentTests {
    @Test func theClaimedEnvironmentIsReadFromThePayloadAlone() {
        let payload = Base64URL.encode(Array(#"{"environment":"Sandbox","transactionId":"1"}"#.utf8))
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(payload).c2ln") == "Sandbox")
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(Base64URL.encode(Array(#"{"environment":3}"#.utf8))).x") == nil)
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.\(payload)") == nil, "two segments are no JWS")
        #expect(SignedDataVerifier.claimedEnvironment(of: "e30.!!.c2ln") == nil)
        #expect(SignedDataVerifier.claimedEnvironment(of: String(repeating: "a", count: SignedDataVerifier.maximumSize + 1)) == nil)
    }
}
