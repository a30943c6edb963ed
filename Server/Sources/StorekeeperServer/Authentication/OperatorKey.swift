import Crypto

/// The operator routes' credential (`Authorization: Bearer <operator key>`): a
/// secret of its own, at least 32 bytes, compared in constant time. Its
/// description never shows it.
public struct OperatorKey: Sendable, CustomStringConvertible {
    /// The fewest bytes a key may have.
    public static let minimumLength = 32

    /// Why a key was refused.
    public struct TooShort: Error, Sendable, Hashable, CustomStringConvertible {
        /// How many bytes the key had.
        public var length: Int
        public var description: String {
            "the operator key has \(length) bytes; it needs at least \(OperatorKey.minimumLength) (generate one with `openssl rand -base64 48`)"
        }
    }

    // The key's SHA-256: comparing digests of equal length leaks neither the key's length nor a prefix.
    private let digest: SHA256.Digest

    /// A key of `text`'s UTF-8 bytes; refused when shorter than ``minimumLength`` bytes.
    public init(_ text: String) throws(TooShort) {
        guard text.utf8.count >= Self.minimumLength else { throw TooShort(length: text.utf8.count) }
        digest = SHA256.hash(data: Array(text.utf8))
    }

    /// Whether `candidate` is the key, in time that does not depend on where they differ.
    public func matches(_ candidate: String) -> Bool {
        // Digest's == is swift-crypto's constant-time comparison.
        SHA256.hash(data: Array(candidate.utf8)) == digest
    }

    public var description: String { "OperatorKey(redacted)" }
}
