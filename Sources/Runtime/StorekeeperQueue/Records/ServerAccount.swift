import StorekeeperContract
public import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// The app's server's view of the signed-in user, over the host's
/// `ServerTransport` (docs/server-contract.md):
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
        package init(user: String, appAccountToken: UUID) {
            self.user = user
            self.appAccountToken = appAccountToken
        }
    }

    /// `GET /v1/account`.
    ///
    /// - Throws: The transport's failure, the status's, or a permanent
    ///   failure naming what is wrong with the answer.
    public func account() async throws(StepFailure) -> Identity {
        let request = ServerRequest(method: "GET", path: ServerPath.account)
        let response = try await transport.send(request)
        try response.check(request, doing: "say who the user is")
        do throws(ContractError) {
            let body = try ContractCoding.decode(AccountBody.self, from: response.body)
            return Identity(user: body.user, appAccountToken: try body.validate())
        } catch {
            throw .permanent("the server's answer to GET \(request.path) is not the documented JSON: \(error)")
        }
    }

    /// `GET /v1/entitlements`.
    ///
    /// - Throws: The transport's failure, the status's, or a permanent
    ///   failure naming the member at fault in the answer.
    public func entitlements() async throws(StepFailure) -> ServerEntitlements {
        let request = ServerRequest(method: "GET", path: ServerPath.entitlements)
        let response = try await transport.send(request)
        try response.check(request, doing: "list the user's entitlements")
        do throws(ContractError) {
            return try ContractCoding.decode(ServerEntitlements.self, from: response.body)
        } catch {
            throw .permanent("the server's answer to GET \(request.path) is not the documented JSON: \(error)")
        }
    }
}
