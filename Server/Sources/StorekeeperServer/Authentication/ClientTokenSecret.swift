import Crypto

/// The secret client tokens are signed with (HMAC-SHA256): at least 32 bytes,
/// as RFC 7518 section 3.2 asks of an HS256 key. Its description never shows it.
public struct ClientTokenSecret: Sendable, CustomStringConvertible {
    /// The fewest bytes a secret may have.
    public static let minimumLength = 32

    /// Why a secret was refused.
    public struct TooShort: Error, Sendable, Hashable, CustomStringConvertible {
        /// How many bytes the secret had.
        public var length: Int
        public var description: String {
            "the client token secret has \(length) bytes; HS256 needs at least \(ClientTokenSecret.minimumLength) (generate one with `openssl rand -base64 48`)"
        }
    }

    let key: SymmetricKey

    /// A secret of `bytes`; refused when shorter than ``minimumLength``.
    public init(_ bytes: [UInt8]) throws(TooShort) {
        guard bytes.count >= Self.minimumLength else { throw TooShort(length: bytes.count) }
        key = SymmetricKey(data: bytes)
    }

    /// A secret of `text`'s UTF-8 bytes; refused when shorter than ``minimumLength`` bytes.
    public init(_ text: String) throws(TooShort) {
        try self.init(Array(text.utf8))
    }

    public var description: String { "ClientTokenSecret(\(key.bitCount / 8) bytes, redacted)" }
}
