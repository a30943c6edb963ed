import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// Version 1 of docs/server-contract.md beyond records: the verification
/// routes the `verify-receipt` step chooses between, the account and
/// entitlements client, spends and content as the reference server answers
/// them, and the error body failures quote.
@Suite struct ServerContractV1Tests {
    static let product = ProductPolicy(id: "com.example.pro", type: .nonConsumable, delivery: .builtIn,
                                       persistence: .server, restore: .restoreTransactions)

    /// A JWS in compact serialization whose payload is `payload` (the
    /// signature is not checked by the simulated server).
    static func jws(_ payload: String) -> String {
        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return base64URL(#"{"alg":"ES256"}"#) + "." + base64URL(payload) + ".c2lnbmF0dXJl"
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

    static func validate(_ transaction: TransactionInfo, with server: SimulatedServer) async -> StepFailure? {
        let context = StepContext(transaction: transaction, product: product, plugins: PluginRegistry(),
                                  services: EngineServices(server: server))
        return await failure { try await ServerReceiptValidator().validate(context) }
    }

    /// Fixed tokens per user, standing for the contract's derivation.
    static let tokens: [String: UUID] = [
        "alice": UUID(uuid: (1, 0, 0, 0, 0, 0, 0x50, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)),
        "bob": UUID(uuid: (2, 0, 0, 0, 0, 0, 0x50, 0, 0x80, 0, 0, 0, 0, 0, 0, 2)),
    ]
    static func token(_ user: String) -> UUID { tokens[user] ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0x50, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)) }

    // MARK: Verification

    @Test func aSignedTransactionIsPostedToTransactions() async throws {
        let server = SimulatedServer(user: "alice", appAccountToken: Self.token)
        let signed = Self.jws(#"{"transactionId":"2000000123","originalTransactionId":"2000000100","productId":"com.example.pro","environment":"Sandbox","appAccountToken":"\#(Self.token("alice").uuidString)"}"#)
        let info = TransactionInfo(id: "2000000123", productID: Self.product.id, state: .purchased, receipt: [1, 2], signedTransaction: signed)
        #expect(await Self.validate(info, with: server) == nil)
        let request = try #require(server.requests.last)
        #expect(request.method == "POST" && request.path == "/v1/transactions")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"signedTransaction":"\#(signed)"}"#)
        let answer = try await server.send(request)
        #expect(String(decoding: answer.body, as: UTF8.self)
            == #"{"environment":"Sandbox","originalTransaction":"2000000100","product":"com.example.pro","transaction":"2000000123"}"#)
    }

    @Test func anUnsignedTransactionSendsItsReceipt() async throws {
        let server = SimulatedServer()
        let info = TransactionInfo(id: "1000000001", productID: Self.product.id, state: .purchased, receipt: [1, 2])
        #expect(await Self.validate(info, with: server) == nil)
        let request = try #require(server.requests.last)
        #expect(request.path == "/v1/receipts/verify")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"product":"com.example.pro","receipt":"AQI=","transaction":"1000000001"}"#)
    }

    @Test func aPayloadThatCannotBeVerifiedFailsPermanentlyQuotingTheServer() async throws {
        let server = SimulatedServer()
        let info = TransactionInfo(id: "1", productID: Self.product.id, state: .purchased, signedTransaction: "not.a-jws")
        let error = try #require(await Self.validate(info, with: server))
        #expect(!error.isTransient)
        #expect(error.reason.hasPrefix("POST /v1/transactions: "), "\(error.reason)")
        #expect(error.reason.contains("(HTTP 422, verification-failed: the signed transaction is not a JWS"), "\(error.reason)")
    }

    @Test func anotherUsersTransactionIsRefused() async throws {
        let server = SimulatedServer(user: "bob", appAccountToken: Self.token)
        let signed = Self.jws(#"{"transactionId":"7","productId":"com.example.pro","appAccountToken":"\#(Self.token("alice").uuidString)"}"#)
        let error = try #require(await Self.validate(TransactionInfo(id: "7", productID: Self.product.id, state: .purchased, signedTransaction: signed), with: server))
        #expect(!error.isTransient)
        #expect(error.reason.contains("HTTP 403, account-mismatch"), "\(error.reason)")
    }

    // MARK: Account and entitlements

    @Test func theAccountIsTheCredentialsUser() async throws {
        let server = SimulatedServer(user: "alice", appAccountToken: Self.token)
        let account = ServerAccount(transport: server)
        #expect(try await account.account() == ServerAccount.Identity(user: "alice", appAccountToken: Self.token("alice")))
        server.signIn(as: "bob")
        #expect(try await account.account().user == "bob")
        #expect(server.requests.map(\.path) == ["/v1/account", "/v1/account"])
    }

    @Test(arguments: [
        ("{}", "user: missing"),
        (#"{"user": "a"}"#, "appAccountToken: missing"),
        (#"{"user": "a", "appAccountToken": "nope"}"#, "appAccountToken: 'nope' is not a UUID"),
        (#"{"user": 1, "appAccountToken": "x"}"#, "user: expected a string"),
        ("[]", "not a JSON object"),
    ])
    func aMalformedAccountSaysWhatIsWrong(_ body: String, _ problem: String) async throws {
        let server = SimulatedServer()
        server.answerNext(with: ServerResponse(status: 200, body: Array(body.utf8)))
        let error = try #require(await Self.failure { _ = try await ServerAccount(transport: server).account() })
        #expect(!error.isTransient)
        #expect(error.reason.contains("GET /v1/account is not the documented JSON: \(problem)"), "\(error.reason)")
    }

    @Test func entitlementsAreDerivedFromTheUsersPurchases() async throws {
        let policy = try QueueFixtures.example("rocket-racer")
        let unlocking = try #require(policy.products.first { !$0.unlocks.isEmpty && $0.type == .nonConsumable })
        let granting = try #require(policy.products.first { $0.type == .consumable && !$0.grants.isEmpty })
        let grant = try #require(granting.grants.first)
        let server = SimulatedServer(user: "alice", policy: policy)
        let store = ServerRecordStore(transport: server)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.keep(StoredRecord(strategy: .server, productID: unlocking.id, value: .flag, transactionID: "t1", purchaseDate: date))
        try await store.keep(StoredRecord(strategy: .server, productID: granting.id, value: .transaction(id: "t2", quantity: 3),
                                          transactionID: "t2", purchaseDate: date))
        server.grant(7, of: grant.balance, to: "alice")
        server.grant(1000, of: grant.balance, to: "bob")
        let entitlements = try await ServerAccount(transport: server).entitlements()
        #expect(entitlements.products == [unlocking.id], "consumables are not owned")
        #expect(entitlements.features == unlocking.unlocks.sorted())
        #expect(entitlements.balances[grant.balance] == grant.amount * 3 + 7, "bob's grant is not alice's")
        server.revoke(transaction: "t1")
        #expect(try await ServerAccount(transport: server).entitlements().products.isEmpty, "a refund takes it away")
    }

    @Test func entitlementsReadTheDocumentedShape() async throws {
        let server = SimulatedServer()
        let body = #"{"features": ["a"], "balances": {"coins": 250}, "subscriptions": [{"product": "m", "expirationDate": 1700000000.5, "status": "grace-period"}], "products": ["m"]}"#
        server.answerNext(with: ServerResponse(status: 200, body: Array(body.utf8)))
        let entitlements = try await ServerAccount(transport: server).entitlements()
        #expect(entitlements == ServerEntitlements(
            features: ["a"], balances: ["coins": 250],
            subscriptions: [.init(product: "m", expirationDate: Date(timeIntervalSince1970: 1_700_000_000.5), status: .gracePeriod)],
            products: ["m"]))
        server.answerNext(with: ServerResponse(status: 200, body: Array(#"{"features": [], "balances": {}, "subscriptions": [{"product": "m"}], "products": []}"#.utf8)))
        let error = try #require(await Self.failure { _ = try await ServerAccount(transport: server).entitlements() })
        #expect(!error.isTransient)
        #expect(error.reason.contains("subscriptions[0].expirationDate: missing"), "\(error.reason)")
    }

    // MARK: Spends (the server side, which the spends client is tested against)

    static func spend(_ key: String, _ balance: String, _ amount: Int, on server: SimulatedServer) async throws -> ServerResponse {
        try await server.send(ServerRequest(method: "PUT", path: "/v1/spends/\(ServerPath.segment(key))",
                                            body: Array(#"{"amount":\#(amount),"balance":"\#(balance)"}"#.utf8)))
    }

    @Test func aSpendIsIdempotentByItsKey() async throws {
        let server = SimulatedServer(user: "alice")
        server.grant(250, of: "coins", to: "alice")
        let first = try await Self.spend("k/1", "coins", 100, on: server)
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == #"{"amount":100,"balance":"coins","key":"k/1","remaining":150}"#)
        let again = try await Self.spend("k/1", "coins", 100, on: server)
        #expect(again == first, "the same answer, nothing spent twice")
        #expect(server.balance("coins", of: "alice") == 150)
        #expect(server.requests.first?.path == "/v1/spends/k%2F1")
    }

    @Test func aReusedKeyOrTooLittleIsRefusedAndSpendsNothing() async throws {
        let server = SimulatedServer(user: "alice")
        server.grant(120, of: "coins", to: "alice")
        #expect(try await Self.spend("k1", "coins", 100, on: server).status == 200)
        let reused = try await Self.spend("k1", "coins", 10, on: server)
        #expect(reused.status == 409 && reused.errorBody?.code == "spend-key-reused")
        let short = try await Self.spend("k2", "coins", 21, on: server)
        #expect(short.status == 409 && short.errorBody?.code == "insufficient-balance")
        #expect(short.errorBody?.message == "coins: 20 available, 21 asked")
        #expect(server.balance("coins", of: "alice") == 20, "nothing spent by a refusal")
        #expect(try await Self.spend("k2", "coins", 20, on: server).status == 200, "a refused key is not used up")
        #expect(server.balance("coins", of: "alice") == 0)
        for body in [#"{"balance":"coins","amount":0}"#, #"{"balance":"coins","amount":-5}"#, #"{"balance":"","amount":1}"#, "{}"] {
            let response = try await server.send(ServerRequest(method: "PUT", path: "/v1/spends/k3", body: Array(body.utf8)))
            #expect(response.status == 400, "\(body)")
        }
    }

    // MARK: Content

    @Test func contentIsServedWithRangesToItsOwnersOnly() async throws {
        let server = SimulatedServer(user: "alice")
        let bytes = (0..<100).map { UInt8($0) }
        server.publish(bytes, at: "packs/level 2.zip", for: "com.example.pack")
        let path = "/v1/content/packs/level%202.zip"
        func get(_ headers: [String: String] = [:]) async throws -> ServerResponse {
            try await server.send(ServerRequest(method: "GET", path: path, headers: headers))
        }
        #expect(try await get().status == 403, "not bought")
        let store = ServerRecordStore(transport: server)
        try await store.keep(StoredRecord(strategy: .server, productID: "com.example.pack", value: .flag, transactionID: "t",
                                          purchaseDate: Date(timeIntervalSince1970: 0)))
        let whole = try await get()
        let etag = try #require(whole.header("etag"))
        #expect(whole.status == 200 && whole.body == bytes)
        let rest = try await get(["Range": "bytes=60-", "If-Range": etag])
        #expect(rest.status == 206 && rest.body == Array(bytes[60...]))
        #expect(rest.header("Content-Range") == "bytes 60-99/100")
        #expect(try await get(["Range": "bytes=60-", "If-Range": "\"old\""]).status == 200, "changed: the whole file")
        let past = try await get(["Range": "bytes=100-", "If-Range": etag])
        #expect(past.status == 416 && past.header("Content-Range") == "bytes */100")
        #expect(try await server.send(ServerRequest(method: "GET", path: "/v1/content/packs/none")).status == 404)
        #expect(try await server.send(ServerRequest(method: "GET", path: "/v1/content/packs/%2E%2E/x")).status == 400)
        server.revoke(transaction: "t")
        #expect(try await get().status == 403, "refunded")
    }

    // MARK: Failures

    @Test func aFailureNamesTheRequestStatusAndServerError() {
        let request = ServerRequest(method: "PUT", path: "/v1/spends/k", headers: ["Authorization": "Bearer s3cret"])
        let busy = ServerResponse(status: 503, body: ServerErrorBody(code: "overloaded", message: "try in a minute").json)
        #expect(busy.failure(for: request, doing: "spend") == .transient("PUT /v1/spends/k: the server could not spend now (HTTP 503, overloaded: try in a minute)"))
        let refused = ServerResponse(status: 409, body: Array("<html>conflict</html>".utf8))
        #expect(refused.failure(for: request, doing: "spend") == .permanent("PUT /v1/spends/k: the server refused to spend (HTTP 409)"))
        #expect(ServerResponse(status: 401).failure(for: request, doing: "spend")?.isTransient == true)
        #expect(ServerResponse(status: 204).failure(for: request, doing: "spend") == nil)
        let long = ServerResponse(status: 400, body: ServerErrorBody(code: "c", message: String(repeating: "x", count: 1000)).json)
        let reason = long.failure(for: request, doing: "spend")?.reason ?? ""
        #expect(reason.count < 400 && reason.hasSuffix("…)"))
    }
}
