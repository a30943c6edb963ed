import Foundation
import StorekeeperCore
import StorekeeperHTTP
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// `HTTPServerTransport` over real HTTP on loopback, against the contract's
/// in-memory server behind ``LoopbackServer``.
@Suite struct HTTPServerTransportTests {
    /// The one credential the tests' server accepts, and a distinctive one:
    /// no failure text may contain it.
    static let user = "alice"

    /// A transport to a fresh loopback server whose user `alice` holds the
    /// credential the transport sends; stopped when `body` returns.
    static func withServer<T>(timeout: Duration = .seconds(10), maxResponseSize: Int = HTTPServerTransport.defaultMaxResponseSize,
                              _ body: (HTTPServerTransport, LoopbackServer, Locked<String?>, URL) async throws -> T) async throws -> T {
        let simulated = SimulatedServer(user: user, appAccountToken: { _ in UUID(uuid: (9, 9, 9, 9, 9, 9, 0x59, 9, 0x89, 9, 9, 9, 9, 9, 9, 9)) })
        let loopback = try LoopbackServer(server: simulated)
        defer { loopback.stop() }
        let credential = Locked<String?>(simulated.credential(for: user))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storekeeper-http-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = try HTTPServerTransport(baseURL: loopback.url, credential: { credential.withLock { $0 } },
                                                content: ContentFolders(root: folder), timeout: timeout, maxResponseSize: maxResponseSize)
        return try await body(transport, loopback, credential, folder)
    }

    /// The failure `body` throws, or `nil` when it succeeds.
    static func failure(_ body: () async throws -> Void) async -> StepFailure? {
        do {
            try await body()
            return nil
        } catch {
            return error as? StepFailure
        }
    }

    static let record = StoredRecord(strategy: .server, productID: "com.example.pack", value: .flag, transactionID: "t/1",
                                     applicationUsername: user, purchaseDate: Date(timeIntervalSince1970: 1_700_000_000.25))

    // MARK: Routes

    @Test func everyRouteRoundTripsOverHTTP() async throws {
        try await Self.withServer { transport, loopback, credential, _ in
            let records = ServerRecordStore(transport: transport)
            try await records.keep(Self.record)
            #expect(try await records.records() == [Self.record])

            let account = ServerAccount(transport: transport)
            #expect(try await account.account().user == Self.user)
            #expect(try await account.entitlements().products == [Self.record.productID])

            loopback.server.grant(10, of: "coins", to: Self.user)
            let spend = try await transport.send(ServerRequest(method: "PUT", path: "/v1/spends/k1", body: Array(#"{"amount":4,"balance":"coins"}"#.utf8)))
            #expect(spend.status == 200 && String(decoding: spend.body, as: UTF8.self).contains(#""remaining":6"#))

            let product = ProductPolicy(id: Self.record.productID, type: .nonConsumable, delivery: .builtIn, persistence: .server,
                                        restore: .restoreTransactions)
            let context = StepContext(transaction: TransactionInfo(id: "t2", productID: product.id, state: .purchased, receipt: [7]),
                                      product: product, plugins: PluginRegistry(), services: EngineServices(server: transport))
            try await ServerReceiptValidator().validate(context)

            let bytes = (0..<5000).map { UInt8($0 % 251) }
            loopback.server.publish(bytes, at: "packs/one.bin", for: product.id)
            let path = try await transport.download(path: "packs/one.bin", storage: .documents, expectedSize: 5000)
            #expect(path.hasSuffix("Documents/Storekeeper/packs/one.bin"))
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == bytes)

            let token = try #require(credential.withLock { $0 })
            let seen = loopback.server.requests
            #expect(seen.map { "\($0.method) \($0.path)" } == [
                "PUT /v1/records/t%2F1", "GET /v1/records", "GET /v1/account", "GET /v1/entitlements", "PUT /v1/spends/k1",
                "POST /v1/receipts/verify", "GET /v1/content/packs/one.bin",
            ])
            #expect(seen.allSatisfy { $0.header("Authorization") == "Bearer \(token)" }, "every request carries the credential")
            #expect(seen[0].header("Content-Type") == "application/json")
            #expect(seen[0].header("Accept") == "application/json")
            #expect(seen.last?.header("Accept") == "*/*", "content is not JSON")
        }
    }

    @Test(arguments: [(401, true), (408, true), (429, true), (500, true), (503, true),
                      (302, false), (400, false), (403, false), (404, false), (409, false), (422, false)])
    func eachStatusClassMapsAsTheContractSays(_ status: Int, _ transient: Bool) async throws {
        try await Self.withServer { transport, loopback, _, _ in
            // A redirect is not followed: it could take the credential elsewhere.
            let headers = status == 302 ? ["Location": "\(loopback.url)/v1/records"] : [:]
            loopback.server.answerNext(with: ServerResponse(status: status, headers: headers))
            let error = try #require(await Self.failure { try await ServerRecordStore(transport: transport).keep(Self.record) })
            #expect(error.isTransient == transient)
            #expect(error.reason.hasPrefix("PUT /v1/records/t%2F1: "), "\(error.reason)")
            #expect(error.reason.contains("(HTTP \(status)"), "\(error.reason)")
            #expect(loopback.server.requestCount == 1, "no retry loop and no redirect followed in the transport")
        }
    }

    @Test func theServersErrorCodeAndMessageAreQuoted() async throws {
        try await Self.withServer { transport, _, _, _ in
            var other = Self.record
            other.applicationUsername = "bob"
            let error = try #require(await Self.failure { try await ServerRecordStore(transport: transport).keep(other) })
            #expect(error == .permanent(
                "PUT /v1/records/t%2F1: the server refused to keep the record of transaction 't/1' (HTTP 403, user-mismatch: the record's user is not the authenticated user)"))
        }
    }

    @Test func anExpiredCredentialWaitsThenTheNewOneSucceeds() async throws {
        try await Self.withServer { transport, loopback, credential, _ in
            let store = ServerRecordStore(transport: transport)
            let old = try #require(credential.withLock { $0 })
            loopback.server.expire(old)
            let expired = try #require(await Self.failure { _ = try await store.records() })
            #expect(expired.isTransient)
            #expect(expired.reason.contains("HTTP 401"), "\(expired.reason)")
            credential.withLock { $0 = nil }
            let none = try #require(await Self.failure { _ = try await store.records() })
            #expect(none.isTransient && none.reason.contains("HTTP 401, unauthenticated"), "\(none.reason)")
            #expect(loopback.server.requests.last?.header("Authorization") == nil, "no credential: no header")
            credential.withLock { $0 = loopback.server.credential(for: Self.user) }
            #expect(try await store.records().isEmpty)
        }
    }

    @Test func aCredentialThatCannotBeHadIsTransientAndSendsNothing() async throws {
        struct SignedOut: Error {}
        let server = SimulatedServer()
        let loopback = try LoopbackServer(server: server)
        defer { loopback.stop() }
        let transport = try HTTPServerTransport(baseURL: loopback.url, credential: { throw SignedOut() },
                                                content: ContentFolders(root: FileManager.default.temporaryDirectory))
        let error = try #require(await Self.failure { _ = try await transport.send(ServerRequest(method: "GET", path: "/v1/records")) })
        #expect(error == .transient("GET /v1/records: the app gave no credential (SignedOut)"))
        #expect(server.requestCount == 0)
    }

    // MARK: The URL and the limits

    @Test func httpsIsRequiredExceptOnTheLocalMachine() throws {
        let content = ContentFolders(root: FileManager.default.temporaryDirectory)
        #expect {
            _ = try HTTPServerTransport(baseURL: "http://example.com", credential: { nil }, content: content)
        } throws: { error in
            let description = String(describing: error)
            return (error as? HTTPTransportError) == .badURL(.insecureHTTP("http://example.com"))
                && description.hasPrefix("the server URL is not usable: ") && description.contains("https")
        }
        for local in ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:1", "https://example.com/api"] {
            #expect(throws: Never.self) { _ = try HTTPServerTransport(baseURL: local, credential: { nil }, content: content) }
        }
        #expect(throws: HTTPTransportError.queryInURL("https://example.com/?v=1")) {
            _ = try HTTPServerTransport(baseURL: "https://example.com/?v=1", credential: { nil }, content: content)
        }
        #expect(throws: HTTPTransportError.self) {
            _ = try HTTPServerTransport(baseURL: "https://example.com", credential: { nil }, content: content, timeout: .zero)
        }
    }

    @Test func aServerThatDoesNotAnswerInTimeIsTransientAndNamesTheRequest() async throws {
        try await Self.withServer(timeout: .seconds(1)) { transport, loopback, _, _ in
            loopback.inject(.stall)
            let error = try #require(await Self.failure { _ = try await ServerRecordStore(transport: transport).records() })
            #expect(error.isTransient)
            #expect(error.reason.hasPrefix("GET /v1/records: the server could not be reached: no answer within the timeout"), "\(error.reason)")
            // The next request is answered: nothing is left over from the stalled one.
            #expect(try await ServerRecordStore(transport: transport).records().isEmpty)
        }
    }

    @Test func aServerThatIsNotThereIsTransient() async throws {
        let loopback = try LoopbackServer(server: SimulatedServer())
        let url = loopback.url
        loopback.stop()   // the port is closed now
        let transport = try HTTPServerTransport(baseURL: url, credential: { "x" }, content: ContentFolders(root: FileManager.default.temporaryDirectory))
        let error = try #require(await Self.failure { _ = try await transport.send(ServerRequest(method: "GET", path: "/v1/account")) })
        #expect(error.isTransient)
        #expect(error.reason.hasPrefix("GET /v1/account: the server could not be reached: "), "\(error.reason)")
    }

    @Test func anAnswerLargerThanTheLimitIsRefused() async throws {
        try await Self.withServer(maxResponseSize: 1024) { transport, loopback, _, _ in
            loopback.server.answerNext(with: ServerResponse(status: 200, body: [UInt8](repeating: 0x20, count: 4096)))
            let error = try #require(await Self.failure { _ = try await ServerRecordStore(transport: transport).records() })
            #expect(!error.isTransient)
            #expect(error.reason == "GET /v1/records: the answer is 4096 bytes, more than the limit of 1024 bytes (maxResponseSize); it was not read")
            loopback.server.answerNext(with: ServerResponse(status: 200, body: Array(#"{"records": []}"#.utf8)))
            #expect(try await ServerRecordStore(transport: transport).records().isEmpty, "an answer within the limit is read")
        }
    }

    // MARK: Secrets

    @Test func theCredentialIsInNoFailure() async throws {
        try await Self.withServer(timeout: .seconds(1)) { transport, loopback, credential, _ in
            let token = try #require(credential.withLock { $0 })
            var reasons: [String] = []
            let store = ServerRecordStore(transport: transport)
            func collect(_ body: () async throws -> Void) async {
                if let failure = await Self.failure(body) { reasons.append(failure.description) }
            }
            loopback.inject(.stall)
            await collect { _ = try await store.records() }
            for status in [401, 403, 500] {
                loopback.server.failNext(1, status: status)
                await collect { try await store.keep(Self.record) }
            }
            loopback.server.answerNext(with: ServerResponse(status: 400, body: ServerErrorBody(code: "echo", message: "you sent \(token.count) characters").json))
            await collect { _ = try await store.records() }
            await collect { _ = try await transport.download(path: "packs/none", storage: nil, expectedSize: nil) }
            loopback.server.expire(token)
            await collect { _ = try await ServerAccount(transport: transport).account() }
            #expect(reasons.count == 7, "\(reasons)")
            #expect(reasons.allSatisfy { !$0.contains(token) }, "\(reasons)")
        }
    }
}
