import StorekeeperRuntime

/// One path segment as the contract encodes it (docs/server-contract.md,
/// "Ids in paths"), decoded by `ServerPath.decodedSegment(_:)`, the same
/// rule the app's side writes with. Hummingbird matches routes on the raw
/// path, so the routes decode their segments here.
enum PathSegment {
    /// The decoded segment; 400 naming `what` when it is empty, malformed or not UTF-8.
    static func decode(_ raw: Substring, what: String) throws(APIError) -> String {
        guard let decoded = ServerPath.decodedSegment(raw), !decoded.isEmpty else {
            throw .badRequest("the \(what) is not a percent-encoded path segment (docs/server-contract.md, Ids in paths)")
        }
        return decoded
    }
}
