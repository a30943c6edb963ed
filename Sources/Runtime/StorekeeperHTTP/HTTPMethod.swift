/// The HTTP methods the server contract uses (docs/server-contract.md).
package enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads a resource.
    case get = "GET"
    /// Creates or asks for something (a verification).
    case post = "POST"
    /// Keeps a resource under a key the client chose, idempotently.
    case put = "PUT"
}
