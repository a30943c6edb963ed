/// The error body a server may give with any answer that is not 2xx
/// (docs/server-contract.md, "Statuses and errors"):
/// `{"error": {"code": "kebab-case-code", "message": "a sentence"}}`.
public struct ServerErrorBody: Sendable, Hashable, Codable {
    /// What went wrong, for programs (`user-mismatch`, `insufficient-balance`;
    /// ``ErrorCode`` names the ones Storekeeper's servers give).
    public var code: String
    /// What went wrong, for people.
    public var message: String

    /// An error body.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// An error body with one of the documented codes.
    public init(_ code: ErrorCode, _ message: String) {
        self.init(code: code.rawValue, message: message)
    }

    /// The documented code, when `code` is one.
    public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }

    /// The body as the contract writes it.
    public var json: [UInt8] {
        // Two strings always make JSON; the empty object is a body no reader mistakes for success.
        (try? ContractCoding.encode(Wrapper(error: Member(code: code, message: message)))) ?? Array("{}".utf8)
    }

    /// The body read from `bytes`, when it is one (the documented shape, with
    /// string members, at most 64 KiB); `nil` for any other body, such as a
    /// proxy's page of HTML.
    package init?(json bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= 64 << 10,
              let wrapper = try? ContractCoding.decode(Wrapper.self, from: bytes) else { return nil }
        self.init(code: wrapper.error.code, message: wrapper.error.message)
    }

    /// Reads the contract's shape, `{"error": {"code": ..., "message": ...}}`.
    public init(from decoder: any Decoder) throws {
        let wrapper = try Wrapper(from: decoder)
        self.init(code: wrapper.error.code, message: wrapper.error.message)
    }

    /// Writes the contract's shape, `{"error": {"code": ..., "message": ...}}`.
    public func encode(to encoder: any Encoder) throws {
        try Wrapper(error: Member(code: code, message: message)).encode(to: encoder)
    }

    private struct Wrapper: Codable {
        var error: Member
    }

    private struct Member: Codable {
        var code: String
        var message: String
    }
}
