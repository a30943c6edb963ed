import Foundation
import StorekeeperCore
import StorekeeperJSON
import StorekeeperRuntime

/// The app's server's view of the signed-in user, over the host's
/// ``ServerTransport`` (docs/server-contract.md):
///
/// - ``account()``: `GET /v1/account`, who the credential authenticates and
///   their appAccountToken;
/// - ``entitlements()``: `GET /v1/entitlements`, what the server derives from
///   the user's purchases.
///
/// Statuses map as everywhere in the contract: 2xx succeeds; 401, 408, 429
/// and 5xx fail transiently; others fail permanently, naming the request,
/// the status and the server's error code. An answer that is not the
/// documented JSON fails permanently, naming what is wrong.
public struct ServerAccount: Sendable {
    /// The connection to the app's server.
    public var transport: any ServerTransport

    /// The account on the server `transport` reaches.
    public init(transport: any ServerTransport) {
        self.transport = transport
    }

    /// Who the server says the user is.
    public struct Identity: Sendable, Hashable {
        /// The server's id for the user: the queue's `applicationUsername`.
        public var user: String
        /// The user's appAccountToken (derived from `user`, docs/server-contract.md).
        public var appAccountToken: UUID

        /// An identity.
        public init(user: String, appAccountToken: UUID) {
            self.user = user
            self.appAccountToken = appAccountToken
        }
    }

    /// `GET /v1/account`.
    ///
    /// - Throws: The transport's failure, the status's, or a permanent
    ///   failure naming what is wrong with the answer.
    public func account() async throws(StepFailure) -> Identity {
        let request = ServerRequest(method: "GET", path: "/v1/account")
        let response = try await transport.send(request)
        try response.check(request, doing: "say who the user is")
        let problem: String
        switch try? JSONParser(maxDepth: 2, maxSize: 64 << 10).parse(response.body) {
        case .object(let members)?:
            let user = members.first { $0.key == "user" }?.value
            let token = members.first { $0.key == "appAccountToken" }?.value
            switch (user, token) {
            case let (.string(user)?, .string(text)?):
                guard !user.isEmpty else { problem = "user: empty"; break }
                guard let uuid = UUID(uuidString: text) else { problem = "appAccountToken: '\(text)' is not a UUID"; break }
                return Identity(user: user, appAccountToken: uuid)
            case (.some, .some):
                problem = "user and appAccountToken must be strings"
            default:
                problem = "\(user == nil ? "user" : "appAccountToken"): missing"
            }
        default:
            problem = "not a JSON object"
        }
        throw .permanent("the server's answer to GET \(request.path) is not the documented JSON: \(problem)")
    }

    /// `GET /v1/entitlements`.
    ///
    /// - Throws: The transport's failure, the status's, or a permanent
    ///   failure naming the member at fault in the answer.
    public func entitlements() async throws(StepFailure) -> ServerEntitlements {
        let request = ServerRequest(method: "GET", path: "/v1/entitlements")
        let response = try await transport.send(request)
        try response.check(request, doing: "list the user's entitlements")
        do throws(RecordJSONError) {
            // Foundation's decoder, as for records: expiration dates are fractional seconds.
            return try RecordCoding.decode(ServerEntitlements.self, from: response.body)
        } catch {
            throw .permanent("the server's answer to GET \(request.path) is not the documented JSON: \(error)")
        }
    }
}
