import Foundation
import Hummingbird
import HummingbirdTesting
import StorekeeperCore
import StorekeeperServer
import StorekeeperServerStorage
import StorekeeperServerTestSupport
import StorekeeperTestChain
import StorekeeperVerification
import Testing

/// What the server grants over a purchase's life, over HTTP: passes end, content follows current
/// entitlements, ownership follows the original transaction, a refund told before the app posts
/// is remembered, a refund of what was spent is owed, family copies grant no balance, and
/// sandbox never counts as production.
@Suite struct PurchaseLifeRouteTests {
    static let day: TimeInterval = 86_400

    /// Alice's entitlements with the clock at `instant`.
    static func entitlements(
        _ harness: ServerHarness, _ client: any TestClientProtocol, _ clock: TestClock, at instant: Date, query: String = ""
    ) async throws -> [String: Any] {
        clock.set(instant)
        return try await client.send(.get, "/v1/entitlements\(query)", token: try harness.token("alice", until: instant.addingTimeInterval(3_600))).object()
    }

    /// A non-renewing subscription's transaction has no `expiresDate`: its term is the product's
    /// duration from the purchase (Apple: the app or its server tracks a non-renewing
    /// subscription's expiry, https://developer.apple.com/documentation/storekit/transaction/expirationdate).
    @Test(arguments: TestBackend.available)
    func aPassEndsWithItsDurationAndItsContentWithIt(backend: TestBackend) async throws {
        let clock = TestClock()
        try await ServerHarness.run(backend, clock: clock) { harness, client in
            // Bought 2026-01-01T00:00:00Z minus 60 s; P1M ends 2026-01-31T23:59:00Z (UTC calendar arithmetic).
            var pass = harness.payload("6000000001", product: ServerHarness.pass, user: "alice")
            pass.expiresDate = nil
            let alice = try harness.token("alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(pass))).status == .ok)
            let end = pass.purchaseDate.addingTimeInterval(31 * Self.day)
            let during = try await Self.entitlements(harness, client, clock, at: end.addingTimeInterval(-1))
            #expect(during["products"] as? [String] == [ServerHarness.pass])
            #expect(during["features"] as? [String] == ["pass"])
            let inForce = try await client.send(.get, "/v1/content/passes/pass", token: try harness.token("alice", until: end))
            #expect(inForce.status == .ok)
            let after = try await Self.entitlements(harness, client, clock, at: end)
            #expect(after["products"] as? [String] == [])
            #expect(after["features"] as? [String] == [])
            let ended = try await client.send(.get, "/v1/content/passes/pass", token: try harness.token("alice", until: end.addingTimeInterval(60)))
            #expect(ended.status == .forbidden && ended.errorCode() == "not-owned", "\(ended.text)")
        }
    }

    @Test(arguments: TestBackend.available)
    func anExpiredSubscriptionsContentNoLongerDownloads(backend: TestBackend) async throws {
        let clock = TestClock()
        try await ServerHarness.run(backend, clock: clock) { harness, client in
            let end = ServerHarness.now.addingTimeInterval(Self.day)
            let basic = harness.payload("6000000002", product: ServerHarness.basic, user: "alice", expires: end)
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(harness.sign(basic))).status == .ok)
            #expect(try await client.send(.get, "/v1/content/basic/guide", token: try harness.token("alice")).status == .ok)
            clock.set(end.addingTimeInterval(1))
            let expired = try await client.send(.get, "/v1/content/basic/guide", token: try harness.token("alice", until: end.addingTimeInterval(60)))
            #expect(expired.status == .forbidden && expired.errorCode() == "not-owned", "\(expired.text)")
        }
    }

    @Test(arguments: TestBackend.available)
    func anotherAccountPostingARenewalWithoutATokenDoesNotTakeIt(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let month = ServerHarness.now.addingTimeInterval(30 * Self.day)
            let first = harness.payload("6000000010", product: ServerHarness.monthly, user: nil, expires: month)
            var renewal = harness.payload("6000000011", product: ServerHarness.monthly, user: nil, expires: month.addingTimeInterval(30 * Self.day))
            renewal.originalTransactionID = "6000000010"
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(harness.sign(first))).status == .ok)
            let bob = try await client.send(.post, "/v1/transactions", token: try harness.token("bob"), body: ServerHarness.transactionBody(harness.sign(renewal)))
            #expect(bob.status == .forbidden && bob.errorCode() == "owned-by-another-user", "\(bob.text)")
            #expect(try await harness.storage.transactions(of: "bob").isEmpty)
            let bobs = try await client.send(.get, "/v1/entitlements", token: try harness.token("bob")).object()
            #expect(bobs["products"] as? [String] == [])
            // Alice, who holds the original, posts it: hers.
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(harness.sign(renewal))).status == .ok)
            #expect(try await harness.storage.transactions(of: "alice").map(\.transactionID) == ["6000000010", "6000000011"])
        }
    }

    /// A REFUND told before anyone holds the transaction (its appAccountToken names nobody the server
    /// knows yet), then the app posts the copy it had, signed before the refund.
    @Test(arguments: TestBackend.available)
    func aRefundToldBeforeTheAppPostsIsRemembered(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let fixture = try NotificationFixture()
            let token = AppAccountToken.derive(fromUser: "alice")
            let bought = ServerHarness.now.addingTimeInterval(-3_600)
            let refunded = try fixture.transaction(
                "6000000020", product: ServerHarness.coins, token: token, signed: ServerHarness.now.addingTimeInterval(-60), purchased: bought,
                revoked: ServerHarness.now.addingTimeInterval(-120))
            let refund = try fixture.notification(.refund, transaction: refunded, signed: ServerHarness.now.addingTimeInterval(-60))
            #expect(await fixture.processor(harness.storage).receive(refund) == .acknowledged)
            let copy = try fixture.transaction("6000000020", product: ServerHarness.coins, token: token, signed: bought, purchased: bought)
            #expect(try await client.send(.post, "/v1/transactions", token: try harness.token("alice"), body: ServerHarness.transactionBody(copy)).status == .ok)
            let body = try await client.send(.get, "/v1/entitlements", token: try harness.token("alice")).object()
            #expect(body["balances"] as? [String: Int] == ["coins": 0])
            #expect(try await harness.storage.lookUpTransaction("6000000020")?.revocationDate != nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func aPurchaseToldByANotificationIsTheTokensUsersBeforeTheAppPosts(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let fixture = try NotificationFixture()
            let token = AppAccountToken.derive(fromUser: "alice")
            let jws = try fixture.transaction("6000000021", product: ServerHarness.pro, token: token, signed: ServerHarness.now.addingTimeInterval(-60))
            #expect(await fixture.processor(harness.storage).receive(try fixture.notification(.oneTimeCharge, transaction: jws, signed: ServerHarness.now)) == .acknowledged)
            let body = try await client.send(.get, "/v1/entitlements", token: try harness.token("alice")).object()
            #expect(body["products"] as? [String] == [ServerHarness.pro])
        }
    }

    @Test(arguments: TestBackend.available)
    func aRevokedTransactionPostedByTheAppTakesItsGrantsBack(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let alice = try harness.token("alice")
            let bought = harness.payload("6000000030", product: ServerHarness.coins, user: "alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(bought))).status == .ok)
            #expect(try await client.send(.put, "/v1/spends/k1", token: alice, body: #"{"balance":"coins","amount":30}"#).status == .ok)
            var refunded = harness.payload("6000000030", product: ServerHarness.coins, user: "alice", revoked: true)
            refunded.signedDate = ServerHarness.now.addingTimeInterval(-5)
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(refunded))).status == .ok)
            // 100 granted, 30 spent, 100 taken back: 30 owed.
            let body = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(body["balances"] as? [String: Int] == ["coins": 0])
            #expect(body["owed"] as? [String: Int] == ["coins": 30])
            let refused = try await client.send(.put, "/v1/spends/k2", token: alice, body: #"{"balance":"coins","amount":1}"#)
            #expect(refused.status == .conflict && refused.errorCode() == "insufficient-balance")
            // A new purchase pays the debt first.
            let more = harness.payload("6000000031", product: ServerHarness.coins, user: "alice")
            #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(more))).status == .ok)
            let paid = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(paid["balances"] as? [String: Int] == ["coins": 70])
            #expect(paid["owed"] as? [String: Int] == [:])
        }
    }

    /// A family member's copy is `FAMILY_SHARED` (https://developer.apple.com/documentation/appstoreservernotifications/inappownershiptype):
    /// the product, not the purchaser's balance.
    @Test(arguments: TestBackend.available)
    func aFamilyCopyGivesTheProductButNoBalance(backend: TestBackend) async throws {
        try await ServerHarness.run(backend) { harness, client in
            let fixture = try NotificationFixture()
            for (id, product) in [("6000000040", ServerHarness.coins), ("6000000041", ServerHarness.pro)] {
                let copy = try fixture.transaction(id, product: product, signed: ServerHarness.now.addingTimeInterval(-60), ownership: .familyShared)
                let answer = try await client.send(.post, "/v1/transactions", token: try harness.token("carol"), body: ServerHarness.transactionBody(copy))
                #expect(answer.status == .ok, "\(answer.text)")
            }
            let body = try await client.send(.get, "/v1/entitlements", token: try harness.token("carol")).object()
            #expect(body["products"] as? [String] == [ServerHarness.pro])
            #expect(body["balances"] as? [String: Int] == ["coins": 0])
        }
    }

    @Test(arguments: TestBackend.available)
    func sandboxPurchasesNeverCountTowardProduction(backend: TestBackend) async throws {
        let chain = try ServerHarness.chain()
        try await ServerHarness.run(backend, configure: { configuration in
            let sandbox = try SignedDataVerifier(trustedRoots: [chain.rootDER], bundleID: ServerHarness.bundleID, environment: .sandbox)
            let production = try SignedDataVerifier(
                trustedRoots: [chain.rootDER], bundleID: ServerHarness.bundleID, environment: .production, appAppleID: 1_234)
            configuration.verifiers = try TransactionVerifiers(production, sandbox)
        }) { harness, client in
            let alice = try harness.token("alice")
            for payload in [harness.payload("6000000050", product: ServerHarness.coins, user: "alice"), harness.payload("6000000051", product: ServerHarness.pro, user: "alice")] {
                #expect(try await client.send(.post, "/v1/transactions", token: alice, body: ServerHarness.transactionBody(harness.sign(payload))).status == .ok)
            }
            let production = try await client.send(.get, "/v1/entitlements", token: alice).object()
            #expect(production["products"] as? [String] == [])
            #expect(production["balances"] as? [String: Int] == ["coins": 0])
            let sandbox = try await client.send(.get, "/v1/entitlements?environment=sandbox", token: alice).object()
            #expect(sandbox["products"] as? [String] == [ServerHarness.pro])
            #expect(sandbox["balances"] as? [String: Int] == ["coins": 100])
            let spend = try await client.send(.put, "/v1/spends/k", token: alice, body: #"{"balance":"coins","amount":10}"#)
            #expect(spend.status == .conflict && spend.errorCode() == "insufficient-balance")
            #expect(try await client.send(.put, "/v1/spends/k?environment=sandbox", token: alice, body: #"{"balance":"coins","amount":10}"#).status == .ok)
            let unknown = try await client.send(.get, "/v1/entitlements?environment=xcode", token: alice)
            #expect(unknown.status == .badRequest && unknown.errorMessage()?.contains("production") == true && unknown.errorMessage()?.contains("sandbox") == true, "\(unknown.text)")
        }
    }
}
