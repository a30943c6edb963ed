extension SignedDataVerifier {
    /// Why a ``SignedDataVerifier`` could not be made: no trusted roots, a root
    /// that is not a certificate, production without an app Apple id.
    public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and what would be right.
        public var message: String

        /// An error saying `message`.
        public init(_ message: String) { self.message = message }

        /// The message.
        public var description: String { message }
    }
}
