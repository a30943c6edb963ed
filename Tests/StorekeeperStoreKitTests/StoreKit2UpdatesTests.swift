import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// `Transaction.updates`: renewals, purchases made elsewhere, refunds and
/// family-sharing revocations, and updates that repeat or arrive out of order.
@Suite struct StoreKit2UpdatesTests {
    typealias H = StoreKit2Harness

    @Test func aRenewalExtendsTheSubscription() async throws {
        let h = try H()
        let app = try await h.launch()
        let first = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(3_600))
        await h.fake.willAnswer(.result(.success(.verified(first))))
        try await app.queue.add(Payment(productID: H.pro, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        let later = H.now.addingTimeInterval(40 * 86_400)
        let renewal = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, originalID: first.id, expires: later)
        await h.fake.emit(.verified(renewal))
        await app.queue.whenIdle()

        #expect(await h.log.updated.map(\.id) == [first.id, renewal.id].map(String.init))
        #expect(await app.queue.entitlements().activeSubscriptions.map(\.expirationDate) == [later])
        #expect(await h.fake.finished == [first.id, renewal.id])
        await h.end(app)
    }

    @Test func aRefundRevokesWhatThePurchaseDeliveredAndFinishesIt() async throws {
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.willAnswer(.result(.success(.verified(bought))))
        try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().isUnlocked("ad-free"))

        let refundDate = H.now.addingTimeInterval(-10)
        let refunded = bought.signedAgain(after: 500) {
            $0.revocationDate = refundDate
            $0.revocationReason = .developerIssue
        }
        await h.fake.emit(.verified(refunded))
        await app.queue.whenIdle()

        #expect(await h.log.revocations == [
            StoreRevocation(productID: H.noAds, transactionIDs: [String(bought.id)], reason: .refund, date: refundDate),
        ])
        #expect(!(await app.queue.entitlements()).isUnlocked("ad-free"))
        #expect(await h.fake.finished == [bought.id, bought.id], "the revoked transaction is finished too")
        #expect(await h.fake.unfinishedIDs.isEmpty)
        await h.end(app)
    }

    @Test func aFamilySharedTransactionTakenBackIsAFamilySharingRevocation() async throws {
        let h = try H()
        let shared = await h.fake.transaction(H.car, type: .nonConsumable, ownership: .familyShared)
        let app = try await h.launch()
        await h.fake.emit(.verified(shared))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().isUnlocked("rocket-car"))

        await h.fake.emit(.verified(shared.signedAgain(after: 60) { $0.revocationDate = H.now }))
        await app.queue.whenIdle()
        #expect(await h.log.revocations.map(\.reason) == [.familySharing])
        #expect(!(await app.queue.entitlements()).isUnlocked("rocket-car"))
        await h.end(app)
    }

    // A family member's copy carries the purchaser's refund reason; 0 (other) is
    // also what it carries when the member leaves the family or sharing stops
    // (https://developer.apple.com/documentation/appstoreserverapi/revocationreason:
    // "For Family Sharing transactions, the revocation reason value is 0 if the
    // customer leaves the family group or the owner stops sharing. If the
    // purchaser of a Family Sharing transaction receives a refund, the
    // revocation reason for Family Sharing transactions matches the value of
    // the purchaser's revocation reason"). So developerIssue (1) on a shared
    // copy can only be the purchaser's refund; other stays Family Sharing.
    @Test func aFamilySharedCopyOfAPurchaseRefundedForAnIssueInTheAppIsARefund() async throws {
        let h = try H()
        let refunded = await h.fake.transaction(H.car, type: .nonConsumable, ownership: .familyShared)
        let left = await h.fake.transaction(H.noAds, type: .nonConsumable, ownership: .familyShared)
        let app = try await h.launch()
        await h.fake.emit(.verified(refunded))
        await h.fake.emit(.verified(left))
        await app.queue.whenIdle()

        await h.fake.emit(.verified(refunded.signedAgain(after: 60) {
            $0.revocationDate = H.now
            $0.revocationReason = .developerIssue
        }))
        await h.fake.emit(.verified(left.signedAgain(after: 60) {
            $0.revocationDate = H.now
            $0.revocationReason = .other
        }))
        await app.queue.whenIdle()
        #expect(await h.log.revocations.map(\.reason) == [.refund, .familySharing])
        await h.end(app)
    }

    // A refund belongs to the one transaction StoreKit signs it on
    // (https://developer.apple.com/documentation/storekit/transaction/revocationdate:
    // "The date that the App Store refunded the transaction or revoked it
    // from Family Sharing"): a subscription period's, not the subscription's.

    @Test func aRefundOfTheCurrentPeriodRevokesThatPeriodAloneAndEndsAccess() async throws {
        let h = try H()
        let app = try await h.launch()
        let first = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-60))
        let renewal = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, originalID: first.id,
                                               expires: H.now.addingTimeInterval(86_400))
        await h.fake.emit(.verified(first))
        await h.fake.emit(.verified(renewal))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().isUnlocked("pro-garage"))
        await h.fake.emit(.verified(renewal.signedAgain(after: 5) { $0.revocationDate = H.now }))
        await app.queue.whenIdle()
        #expect(await h.log.revocations.map(\.transactionIDs) == [[String(renewal.id)]], "not the first period too")
        let after = await app.queue.entitlements()
        #expect(!after.isUnlocked("pro-garage") && !after.owns(H.pro), "the period paid for now was refunded")
        await h.end(app)
    }

    @Test func aRefundOfAnEarlierPeriodLeavesThePeriodPaidForNow() async throws {
        let h = try H()
        let app = try await h.launch()
        let lastMonth = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-60))
        let thisMonthEnds = H.now.addingTimeInterval(86_400)
        let thisMonth = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, originalID: lastMonth.id, expires: thisMonthEnds)
        await h.fake.emit(.verified(lastMonth))
        await h.fake.emit(.verified(thisMonth))
        await app.queue.whenIdle()
        let before = await app.queue.entitlements()
        #expect(before.isUnlocked("pro-garage") && before.isUnlocked("ad-free"))

        let refundDate = H.now.addingTimeInterval(-30)
        await h.fake.emit(.verified(lastMonth.signedAgain(after: 5) { $0.revocationDate = refundDate }))
        await app.queue.whenIdle()
        #expect(await h.log.revocations == [
            StoreRevocation(productID: H.pro, transactionIDs: [String(lastMonth.id)], reason: .refund, date: refundDate),
        ], "the refunded period alone")
        let after = await app.queue.entitlements()
        #expect(after == before, "this month's paid access stands")
        #expect(after.activeSubscriptions == [ActiveSubscription(productID: H.pro, expirationDate: thisMonthEnds)])
        await h.end(app)
    }

    @Test func aRepeatedUpdateIsDeliveredOnce() async throws {
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.coins, type: .consumable, quantity: 2)
        await h.fake.emit(.verified(bought))
        await h.fake.emit(.verified(bought))
        await app.queue.whenIdle()
        await h.fake.emit(.verified(bought))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == 1_000)
        #expect(await h.log.updated.map(\.id) == [String(bought.id)])
        #expect(await h.log.ignored.allSatisfy { $0.1 == .duplicate })
        await h.end(app)
    }

    @Test func anOlderVersionAfterANewerOneIsStale() async throws {
        // The refund is signed after the purchase, but arrives first: the
        // purchase must not be delivered after it.
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        let refunded = bought.signedAgain(after: 100) { $0.revocationDate = H.now }
        await h.fake.emit(.verified(refunded))
        await h.fake.emit(.verified(bought))
        await app.queue.whenIdle()

        #expect(await h.log.revocations.map(\.transactionIDs) == [[String(bought.id)]])
        #expect(await h.log.updated.isEmpty, "nothing delivered")
        #expect(!(await app.queue.entitlements()).owns(H.noAds))
        #expect(await h.fake.finished == [bought.id], "finished once, as revoked")
        await h.end(app)
    }

    @Test func aRevocationBeforeThePurchaseKeepsThePurchaseFromDelivering() async throws {
        // Both versions signed at the same moment: neither is stale, so the
        // queue sees the revocation, then the purchase, and delivers nothing.
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.coins, type: .consumable)
        await h.fake.emit(.verified(bought.signedAgain(after: 0) { $0.revocationDate = H.now }))
        await app.queue.whenIdle()
        await h.fake.emit(.verified(bought))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == 0)
        #expect(await h.log.ignored.map(\.1).allSatisfy { $0 == .revoked })
        #expect(await h.log.updated.isEmpty)
        await h.end(app)
    }

    // Unverified transactions: Apple's own listener ignores them and never
    // finishes them ("Implementing a store in your app using the StoreKit
    // API", https://developer.apple.com/documentation/storekit/implementing-a-store-in-your-app-using-the-storekit-api:
    // its `Transaction.updates` loop finishes a transaction only after
    // `checkVerified` returns it, and on failure only prints); StoreKit keeps a
    // transaction unfinished until `finish()` is called
    // (https://developer.apple.com/documentation/storekit/transaction/unfinished).

    @Test func anUnverifiedUpdateIsIgnoredAndLeftUnfinished() async throws {
        let h = try H()
        let app = try await h.launch()
        let unproven = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.emit(.unverified(unproven, reason: "invalidDeviceVerification"))
        await app.queue.whenIdle()
        #expect(await h.log.events.isEmpty, "the queue hears nothing of it")
        #expect(!(await app.queue.entitlements()).owns(H.noAds))
        #expect(await h.fake.finished.isEmpty, "never finished")
        #expect(await h.fake.unfinishedIDs == [unproven.id], "so StoreKit gives it again")
        await h.end(app)
    }

    @Test func anUnverifiedCopyMarksNoVerifiedCopyStale() async throws {
        // The unverified copy claims a later signedDate; it is unproven, so
        // the verified copy that follows is still the one that counts.
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.coins, type: .consumable)
        await h.fake.emit(.unverified(bought.signedAgain(after: 1_000), reason: "invalidSignature"))
        await h.fake.emit(.verified(bought))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == 500)
        #expect(await h.log.updated.map(\.id) == [String(bought.id)])
        #expect(await h.fake.finished == [bought.id], "finished once, after it was granted")
        await h.end(app)
    }

    @Test func aTokenNamesItsUserOnlyWhenTheBackendKnowsTheUser() async throws {
        let h = try H()
        let app = try await h.launch(user: "player-1")
        let mine = await h.fake.transaction(H.noAds, type: .nonConsumable, token: AppAccountToken.derive(fromUser: "player-1"))
        let stranger = await h.fake.transaction(H.car, type: .nonConsumable, token: AppAccountToken.derive(fromUser: "someone-else"))
        let none = await h.fake.transaction(H.coins, type: .consumable)
        for transaction in [mine, stranger, none] { await h.fake.emit(.verified(transaction)) }
        await app.queue.whenIdle()
        #expect(await h.log.updated.map(\.info.applicationUsername) == ["player-1", nil, nil])
        await h.end(app)
    }

    @Test func anAppWithItsOwnListenerHandsUpdatesToTheBackend() async throws {
        let h = try H()
        let backend = StoreKit2Backend(store: h.fake, applicationUsername: "player-1", listensForUpdates: false)
        let queue = try TransactionQueue(policy: h.policy, store: backend, configuration: QueueConfiguration(
            journalPath: h.folder.appendingPathComponent("own.sqlite").path, durability: .appCrash))
        try await queue.start(observers: [h.log])
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable, token: AppAccountToken.derive(fromUser: "player-1"))
        await backend.handle(.verified(bought))
        await queue.whenIdle()
        #expect(await queue.entitlements().owns(H.noAds))
        #expect(await h.log.updated.map(\.info.applicationUsername) == ["player-1"], "the token names the signed-in user")
        await queue.stop()
    }
}
