import Hummingbird
import Logging
@testable import StorekeeperServer
import StorekeeperContract
import Synchronization
import Testing

/// A refused purchase is said in the log at the server's default level
/// (`info`), so an operator can find why a device's transaction was not kept;
/// a client's everyday mistakes (400, 401, 404) are not.
@Suite struct RefusalLoggingTests {
    /// Keeps every entry logged through it.
    final class Capture: LogHandler, @unchecked Sendable {
        // @unchecked: `entries` is behind its Mutex; the rest is set once, as Logger requires of a handler.
        let entries = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            entries.withLock { $0.append((event.level, event.message.description, event.metadata ?? [:])) }
        }
    }

    static func request() -> Request {
        Request(head: .init(method: .post, scheme: "http", authority: "localhost", path: "/v1/transactions"), body: .init(buffer: .init()))
    }

    @Test(arguments: [(422, ErrorCode.verificationFailed), (403, .accountMismatch), (409, .insufficientBalance)])
    func aRefusedPurchaseIsLoggedAtInfo(_ status: Int, _ code: ErrorCode) {
        let capture = Capture()
        let logger = Logger(label: "test") { _ in capture }
        let refusal = APIError(.init(code: status), code, "invalidSignature: the signature does not verify")
        _ = ErrorMiddleware<BasicRequestContext>.answer(for: refusal, request: Self.request(), logger: logger)
        let entries = capture.entries.withLock { $0 }
        #expect(entries.count == 1)
        #expect(entries.first?.level == .info)
        #expect(entries.first?.metadata["code"] == .string(code.rawValue))
        #expect(entries.first?.metadata["status"]?.description == String(status))
        #expect(entries.first?.metadata["path"] == .string("/v1/transactions"))
    }

    @Test(arguments: [(400, ErrorCode.badRequest), (401, .unauthenticated), (404, .notFound)])
    func aClientsOwnMistakeIsNotLogged(_ status: Int, _ code: ErrorCode) {
        let capture = Capture()
        let logger = Logger(label: "test") { _ in capture }
        _ = ErrorMiddleware<BasicRequestContext>.answer(for: APIError(.init(code: status), code, "no"), request: Self.request(), logger: logger)
        #expect(capture.entries.withLock { $0 }.isEmpty)
    }
}
