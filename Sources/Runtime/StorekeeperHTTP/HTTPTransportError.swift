public import StorekeeperCore

/// Why an ``HTTPServerTransport`` cannot be made; `description` says what
/// would be right.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The base URL breaks `ServerURL`'s rule (docs/server-contract.md#the-server-url),
    /// such as `http` to a host that is not the local machine.
    case badURL(ServerURL.Problem)
    /// The base URL has a query or a fragment, which request paths cannot follow.
    case queryInURL(String)
    /// A timeout or a size limit that is not more than zero.
    case badLimit(String)

    /// What is wrong, and what would be right.
    public var description: String {
        switch self {
        case .badURL(let problem): "the server URL is not usable: \(problem)"
        case .queryInURL(let text): "the server URL '\(text)' has a query or a fragment; give the URL the contract's paths (/v1/...) follow, like https://store.example.com/api"
        case .badLimit(let text): text
        }
    }
}
