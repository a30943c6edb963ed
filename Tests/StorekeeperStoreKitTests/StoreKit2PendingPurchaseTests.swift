import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Ask to Buy on StoreKit 2: which pending purchase an approval completes,
/// and pending purchases kept across a relaunch.
///
/// StoreKit 2 returns no transaction for a pending purchase; "If the
/// transaction completes, it's available through the Transaction.updates
/// sequence" (https://developer.apple.com/documentation/storekit/product/purchaseresult/pending).
/// The approval carries what the purchase asked for: its product, its
/// `purchasedQuantity` and the `appAccountToken` the purchase was made with
/// (https://developer.apple.com/documentation/storekit/transaction/appaccounttoken).
@Suite struct StoreKit2PendingPurchaseTests {
    typealias H = StoreKit2Harness

    /// A backend keeping its pending purchases in the harness's folder.
    static func backend(_ h: H, user: String?) throws -> StoreKit2Backend {
        try StoreKit2Backend(store: h.fake, applicationUsername: user, pendingPurchasesFile: h.folder.appendingPathComponent("pending.json"))
    }

    /// Asks for each (product, quantity, user) in turn; StoreKit leaves each pending.
    static func ask(_ requests: [(String, Int, String?)], _ h: H, _ app: H.Launch) async throws {
        for (product, quantity, user) in requests {
            await h.fake.willAnswer(.result(.pending))
            try await app.queue.add(Payment(productID: product, quantity: quantity, applicationUsername: user))
        }
        await app.queue.whenIdle()
    }

    @Test func anApprovalCompletesTheRequestForItsQuantityNotAnOlderOneForAnother() async throws {
        let h = try H()
        let app = try await h.launch()
        try await Self.ask([(H.coins, 1, "player-1"), (H.coins, 3, "player-1")], h, app)

        // The parent approves the request for three.
        let three = await h.fake.transaction(H.coins, type: .consumable, quantity: 3, token: AppAccountToken.derive(fromUser: "player-1"))
        await h.fake.emit(.verified(three))
        await app.queue.whenIdle()

        #expect(await app.backend.pendingPurchases().map(\.completedBy) == [nil, String(three.id)])
        #expect(await app.queue.entitlements().balance("coins") == 1_500)
        await h.end(app)
    }

    @Test func aPurchaseAFamilyMemberSharesCompletesNoRequest() async throws {
        // A family member buys the product the user asked for: the copy shared
        // with the user is theirs ("familyShared": "The transaction belongs to
        // a family member who benefits from service",
        // https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct),
        // not an answer to the user's request.
        let h = try H()
        let app = try await h.launch(user: nil)
        try await Self.ask([(H.noAds, 1, nil)], h, app)

        let shared = await h.fake.transaction(H.noAds, type: .nonConsumable, ownership: .familyShared)
        await h.fake.emit(.verified(shared))
        await app.queue.whenIdle()

        #expect(await app.queue.entitlements().owns(H.noAds), "the shared purchase is delivered")
        #expect(await app.backend.pendingPurchases().map(\.completedBy) == [nil], "the request still waits")
        await h.end(app)
    }

    @Test func aLaterVersionOfAnEarlierPurchaseCompletesNoRequest() async throws {
        // The user bought coins, the App Store refunded them and then reversed
        // the refund: each is the earlier purchase signed again (the reversal
        // without its `revocationDate`), not an approval of what the user asked for since.
        let h = try H()
        let app = try await h.launch()
        let token = AppAccountToken.derive(fromUser: "player-1")
        let bought = await h.fake.transaction(H.coins, type: .consumable, token: token)
        await h.fake.willAnswer(.result(.success(.verified(bought))))
        try await app.queue.add(Payment(productID: H.coins, applicationUsername: "player-1"))
        try await Self.ask([(H.coins, 1, "player-1")], h, app)

        let refunded = bought.signedAgain(after: 60) { $0.revocationDate = $0.signedDate; $0.revocationType = .fullRefund }
        await h.fake.emit(.verified(refunded))
        await h.fake.emit(.verified(refunded.signedAgain(after: 60) { $0.revocationDate = nil; $0.revocationType = nil }))
        await app.queue.whenIdle()

        #expect(await app.backend.pendingPurchases().map(\.completedBy) == [nil])
        #expect(await app.queue.entitlements().balance("coins") == 500, "the reversal gave back what the refund took")
        await h.end(app)
    }

    @Test func aRequestMadeBeforeARelaunchIsCompletedAfterItForTheUserWhoAsked() async throws {
        let h = try H()
        let before = try await h.start(try Self.backend(h, user: "player-2"))
        try await Self.ask([(H.noAds, 1, "player-2")], h, before)
        let request = try #require(await before.backend.pendingPurchases().first)
        await h.end(before)

        // The app is relaunched with another user signed in; the parent approves.
        let after = try await h.start(try Self.backend(h, user: "player-1"))
        #expect(await after.backend.pendingPurchases() == [request])
        let approval = await h.fake.transaction(H.noAds, type: .nonConsumable, token: AppAccountToken.derive(fromUser: "player-2"))
        await h.fake.emit(.verified(approval))
        await after.queue.whenIdle()

        let delivered = try #require(await h.log.updated.last)
        #expect(delivered.id == String(approval.id) && delivered.info.state == .purchased)
        #expect(delivered.info.applicationUsername == "player-2", "the user who asked, not the one signed in")
        #expect(await after.backend.pendingPurchases().map(\.completedBy) == [String(approval.id)])
        #expect(await h.fake.finished == [approval.id])
        await h.end(after)
    }

    @Test func anApprovalDeliveredAgainAfterARelaunchCompletesNoSecondRequest() async throws {
        // StoreKit gives a transaction again after a relaunch while it is
        // unfinished ("If your app has unfinished transactions, the updates
        // listener receives them once, immediately after the app launches":
        // https://developer.apple.com/documentation/storekit/transaction/updates).
        let h = try H()
        let first = try await h.start(try Self.backend(h, user: "player-1"))
        try await Self.ask([(H.coins, 1, "player-1"), (H.coins, 1, "player-1")], h, first)
        let approval = await h.fake.transaction(H.coins, type: .consumable, token: AppAccountToken.derive(fromUser: "player-1"))
        await h.fake.emit(.verified(approval))
        await first.queue.whenIdle()
        await h.end(first)

        let second = try await h.start(try Self.backend(h, user: "player-1"))
        await h.fake.emit(.verified(approval))
        await second.queue.whenIdle()

        #expect(await second.backend.pendingPurchases().map(\.completedBy) == [String(approval.id), nil])
        #expect(await second.queue.entitlements().balance("coins") == 500, "delivered once")
        await h.end(second)
    }

    @Test func aPendingPurchasesFileThatIsNotOneIsRefusedWithWhereAndWhat() async throws {
        let h = try H()
        let file = h.folder.appendingPathComponent("pending.json")
        try Data("not json".utf8).write(to: file)
        #expect {
            _ = try Self.backend(h, user: nil)
        } throws: { error in
            guard let error = error as? StoreKit2PendingPurchaseFileError else { return false }
            return error.path == file.path && error.description.contains("\"version\": 1")
        }
        #expect(try Data(contentsOf: file) == Data("not json".utf8), "left as it was")

        try Data(#"{"version": 2, "purchases": []}"#.utf8).write(to: file)
        #expect {
            _ = try Self.backend(h, user: nil)
        } throws: { error in
            (error as? StoreKit2PendingPurchaseFileError)?.reason == "has version 2; this build reads versions 1 to 1"
        }
    }

    @Test func aPendingPurchaseThatCannotBeSavedIsStillDeferredAndTheFailureIsKept() async throws {
        let h = try H()
        // Read at launch (nothing there yet); then a file takes the folder's place, so the save cannot make it.
        let folder = h.folder.appendingPathComponent("pending")
        let missing = folder.appendingPathComponent("pending.json")
        let backend = try StoreKit2Backend(store: h.fake, applicationUsername: "player-1", pendingPurchasesFile: missing)
        try Data("x".utf8).write(to: folder)
        let app = try await h.start(backend)
        try await Self.ask([(H.pro, 1, "player-1")], h, app)

        #expect(await h.log.updated.map(\.info.state) == [.deferred])
        #expect(await app.backend.pendingPurchases().count == 1, "kept in memory")
        let failure = try #require(await app.backend.pendingPurchasesSaveFailure)
        #expect(failure.path == missing.path)
        await h.end(app)
    }

    @Test func onlyTheNewestRequestsAreKept() {
        var pending = StoreKit2PendingPurchases()
        for index in 0...StoreKit2PendingPurchases.kept {
            pending.add(StoreKit2PendingPurchase(id: "pending-\(index)", productID: H.coins, quantity: 1, applicationUsername: nil,
                                                 appAccountToken: nil))
        }
        #expect(pending.purchases.count == StoreKit2PendingPurchases.kept)
        #expect(pending.purchases.first?.id == "pending-1" && pending.purchases.last?.id == "pending-\(StoreKit2PendingPurchases.kept)")
    }
}
