import Hummingbird

/// The credential of an `Authorization: Bearer <credential>` header (RFC 6750), or nil when there is none.
enum BearerCredential {
    static func of(_ request: Request) -> Substring? {
        guard let header = request.headers[.authorization] else { return nil }
        let scheme = "bearer "
        guard header.utf8.count > scheme.utf8.count, header.prefix(scheme.count).lowercased() == scheme else { return nil }
        let credential = header.dropFirst(scheme.count).drop(while: { $0 == " " })
        return credential.isEmpty ? nil : credential
    }
}
