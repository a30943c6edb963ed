extension SignedDataVerifier {
    /// The App Store environment signed data comes from, spelled as the
    /// payloads' `environment` member spells it.
    public enum Environment: String, Sendable, Hashable, CaseIterable {
        /// The App Store sandbox (TestFlight and development builds).
        case sandbox = "Sandbox"
        /// The App Store.
        case production = "Production"
        /// Xcode's StoreKit testing: not signed by the App Store, so not verified (as Apple's library does).
        case xcode = "Xcode"
        /// StoreKit testing on a device: not signed by the App Store, so not verified (as Apple's library does).
        case localTesting = "LocalTesting"

        /// Whether data of this environment is signed by the App Store, so that its chain and signature are checked.
        var isSignedByTheAppStore: Bool { self == .sandbox || self == .production }
    }
}
