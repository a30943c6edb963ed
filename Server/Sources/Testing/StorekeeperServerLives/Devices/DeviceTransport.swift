import Foundation
import StorekeeperCore
import StorekeeperHTTP
import StorekeeperRuntime
import Synchronization

/// A device's connection to the life's server: the app's own `HTTPServerTransport` (real HTTP on loopback,
/// with the app account's credential), pointed again at its instance each time the instance starts (each
/// start listens on a new port). While the server is down it fails every request as an unreachable server
/// does (transiently), without sending: the queue then retries later, as it would. Every exchange is noted
/// for the life's story.
final class DeviceTransport: ServerTransport {
    private struct State {
        var http: HTTPServerTransport?
        var exchanges: [String] = []
        /// The transactions the server answered 200 to (`POST /v1/transactions`'s `transaction`).
        var kept: Set<String> = []
    }

    private let state = Mutex(State())
    /// The app account, for the story.
    let account: String
    private let credential: @Sendable () async throws -> String?
    private let content: ContentFolders

    /// A transport for `account`, offline until ``point(to:)``.
    init(account: String, content: ContentFolders, credential: @escaping @Sendable () async throws -> String?) {
        self.account = account
        self.content = content
        self.credential = credential
    }

    /// Sends to the instance at `baseURL` from now on.
    func point(to baseURL: String) throws {
        let http = try HTTPServerTransport(baseURL: baseURL, credential: credential, content: content, timeout: .seconds(30))
        state.withLock { $0.http = http }
    }

    /// The server is down: nothing reaches it until ``point(to:)``.
    func goOffline() {
        state.withLock { $0.http = nil }
    }

    /// Whether the server answered 200 to a post of this transaction (it keeps it).
    func kept(_ transactionID: String) -> Bool {
        state.withLock { $0.kept.contains(transactionID) }
    }

    /// The exchanges since the last call, one line each.
    func takeExchanges() -> [String] {
        state.withLock { state in
            defer { state.exchanges.removeAll() }
            return state.exchanges
        }
    }

    func send(_ request: ServerRequest) async throws(StepFailure) -> ServerResponse {
        guard let http = state.withLock({ $0.http }) else {
            note("\(request.method) \(request.path): not sent, the server is down")
            throw .transient("\(request.method) \(request.path): the server could not be reached (it is down in this life)")
        }
        do {
            let response = try await http.send(request)
            if request.method == "POST", request.path == "/v1/transactions", response.status == 200,
               let answer = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
               let id = answer["transaction"] as? String {
                state.withLock { _ = $0.kept.insert(id) }
            }
            let body = (200..<300).contains(response.status) ? "" : " " + String(decoding: response.body, as: UTF8.self)
            note("\(request.method) \(request.path): \(response.status)\(body)")
            return response
        } catch {
            note("\(request.method) \(request.path): \(error.reason)")
            throw error
        }
    }

    func download(path: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        guard let http = state.withLock({ $0.http }) else {
            throw .transient("GET /v1/content/\(path): the server could not be reached (it is down in this life)")
        }
        return try await http.download(path: path, storage: storage)
    }

    private func note(_ line: String) {
        state.withLock { $0.exchanges.append("device of \(account): \(line)") }
    }
}
