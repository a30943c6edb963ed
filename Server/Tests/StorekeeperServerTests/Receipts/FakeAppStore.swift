import Foundation
import Hummingbird
import NIOCore
import StorekeeperJSON

/// Apple's `verifyReceipt` played on loopback by a small Hummingbird server on a port the system
/// chooses: `/production/verifyReceipt` and `/sandbox/verifyReceipt` answer as a test scripts
/// them, and every request is counted with the JSON it carried.
struct FakeAppStore {
    /// What an endpoint answers.
    enum Answer: Sendable {
        /// HTTP 200 with this JSON.
        case json(String)
        /// `verifyReceipt`'s answer with this status and nothing else.
        case status(Int)
        /// An HTTP status other than 200, no body.
        case http(Int)
        /// A redirect to this path on the same server.
        case redirect(String)
    }

    /// One request received.
    struct Call: Sendable {
        /// `production`, `sandbox`, or `elsewhere` (a redirect's target).
        var endpoint: String
        /// The request's JSON members.
        var members: [String: JSONValue]
    }

    /// The requests received, in order.
    actor Calls {
        private(set) var all: [Call] = []
        func append(_ call: Call) { all.append(call) }
        /// The endpoints asked, in order.
        var endpoints: [String] { all.map(\.endpoint) }
        /// How many requests `endpoint` received.
        func count(_ endpoint: String) -> Int { all.filter { $0.endpoint == endpoint }.count }
    }

    let url: String
    let calls: Calls

    var productionURL: String { "\(url)/production/verifyReceipt" }
    var sandboxURL: String { "\(url)/sandbox/verifyReceipt" }

    /// Runs `body` while the fake App Store answers with `answer` (given the endpoint asked).
    static func run(
        answering answer: @escaping @Sendable (_ endpoint: String) -> Answer, _ body: (FakeAppStore) async throws -> Void
    ) async throws {
        let calls = Calls()
        let router = Router()
        for endpoint in ["production", "sandbox", "elsewhere"] {
            router.post("/\(endpoint)/verifyReceipt") { request, _ -> Response in
                let bytes = try await request.body.collect(upTo: 1 << 20)
                var members: [String: JSONValue] = [:]
                if case .object(let pairs)? = try? JSONParser().parse(Array(bytes.readableBytesView)) {
                    for pair in pairs { members[pair.key] = pair.value }
                }
                await calls.append(Call(endpoint: endpoint, members: members))
                switch answer(endpoint) {
                case .json(let text):
                    return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
                case .status(let status):
                    return Response(
                        status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: #"{"status":\#(status)}"#)))
                case .http(let code):
                    return Response(status: HTTPResponse.Status(code: code))
                case .redirect(let path):
                    return Response(status: .found, headers: [.location: path])
                }
            }
        }
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in found.yield(channel.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw FakeAppStoreError() }
            do {
                try await body(FakeAppStore(url: "http://127.0.0.1:\(port)", calls: calls))
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}

/// The fake App Store did not start listening.
struct FakeAppStoreError: Error, CustomStringConvertible {
    var description: String { "the fake App Store did not start listening on 127.0.0.1" }
}
