import StorekeeperRuntime
import StorekeeperVerification

/// What the routes are made from, once the settings are checked: the policy, the app's bundle id,
/// one verifier per accepted environment, the client token secret.
struct PreparedServer: Sendable {
    var settings: ServeSettings
    var policy: CompiledPolicy
    var bundleID: String
    var verifiers: [SignedDataVerifier.Environment: SignedDataVerifier]
    var clientTokenSecret: Secret
}
