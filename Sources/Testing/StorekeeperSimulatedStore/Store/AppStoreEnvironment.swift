/// The App Store environment a signed transaction says it comes from (the
/// payload's `environment`): verifiers accept only the one they are set up for.
public enum AppStoreEnvironment: String, Sendable, Hashable, CaseIterable {
    /// Apple's sandbox (TestFlight and sandbox accounts).
    case sandbox = "Sandbox"
    /// The App Store.
    case production = "Production"
    /// Xcode's local StoreKit testing. Apple's verifiers skip the signature
    /// check for it: test signatures in ``sandbox`` or ``production``.
    case xcode = "Xcode"
}
