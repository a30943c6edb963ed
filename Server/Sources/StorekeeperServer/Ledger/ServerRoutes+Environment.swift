import Hummingbird
import StorekeeperVerification

extension ServerRoutes {
    /// The App Store environment whose purchases and balances a client route answers for:
    /// `?environment=production|sandbox|xcode|localtesting` when the server accepts it, else
    /// Production when the server accepts it, else the first environment it accepts (a
    /// sandbox-only server answers Sandbox). A sandbox purchase never counts in Production's.
    func environment(of request: Request) throws -> String {
        let accepted = configuration.verifiers.environments
        guard let asked = request.uri.queryParameters.get("environment") else {
            return (accepted.contains(.production) ? SignedDataVerifier.Environment.production : accepted.first ?? .production).rawValue
        }
        guard let environment = accepted.first(where: { $0.rawValue.lowercased() == asked.lowercased() }) else {
            throw APIError.badRequest(
                "environment: '\(asked)' is not an environment this server accepts; use one of "
                    + accepted.map { $0.rawValue.lowercased() }.joined(separator: ", "))
        }
        return environment.rawValue
    }
}
