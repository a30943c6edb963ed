import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// Which identifier each StoreKit 1 transaction has for the queue: duplicates,
/// updates out of order, Ask to Buy, relaunches, and finishing.
@Suite struct StoreKit1IdentityTests {
    @Test func anAskToBuyApprovalIsTheSameObjectAndResolvesItsDeferredRequest() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        try await queue.add(Payment(productID: StoreKit1World.noAds))
        let transaction = try #require(world.fake.lastMade)
        transaction.become(.deferred)
        world.fake.deliver(transaction)
        try await StoreKit1World.settle(queue, world.log) { $0.filter { if case .updated = $0 { true } else { false } }.count == 2 }
        transaction.become(.purchased, id: "1000000010", date: StoreKit1World.now)
        world.fake.deliver(transaction)
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }

        let updates = await world.log.updated
        #expect(updates.map(\.info.state) == [.purchasing, .deferred, .purchased])
        let local = updates[0].id
        #expect(updates[1].id == local, "the deferred update supersedes the purchasing one: one identifier")
        #expect(updates[2].id == "1000000010")
        #expect(world.backend.approvedTransactionID(forLocalID: local) == "1000000010")
        #expect(await world.log.ignored.isEmpty)
        #expect(await queue.entitlements().owns(StoreKit1World.noAds))
        #expect(world.fake.finished == ["1000000010"])
        await queue.stop()
    }

    @Test func afterARelaunchADeferredRequestIsANewObjectShownAgainAndItsApprovalDeliversOnce() async throws {
        let first = try StoreKit1World()
        let queue = try await first.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.coins, quantity: 2)
        first.fake.deliver(FakeSKTransaction(payment, state: .deferred))
        try await StoreKit1World.settle(queue, first.log) { !$0.isEmpty }
        let before = try #require(await first.log.updated.first).id
        await queue.stop()

        // The next launch: StoreKit delivers the unfinished deferred transaction again, as a new object.
        let second = try StoreKit1World(folder: first.folder)
        let relaunched = try await second.startQueue()
        let again = FakeSKTransaction(payment, state: .deferred)
        second.fake.deliver(again)
        try await StoreKit1World.settle(relaunched, second.log) { !$0.isEmpty }
        let after = try #require(await second.log.updated.first).id
        #expect(after != before, "a new object, a new local identifier: the request is shown as waiting again")
        #expect(await second.log.ignored.isEmpty)
        again.become(.purchased, id: "1000000011", date: StoreKit1World.now)
        second.fake.deliver(again)
        second.fake.deliver(again)
        try await StoreKit1World.settle(relaunched, second.log) { $0.contains { $0.isRemoved } && $0.count >= 5 }
        #expect(await relaunched.entitlements().balance("coins") == 1000, "granted once, for the quantity")
        #expect(await second.log.ignored == [.duplicate])
        #expect(second.fake.finished == ["1000000011"], "finished once: a duplicate of a transaction StoreKit removed is not finished again")
        await relaunched.stop()
    }

    @Test func aPurchaseDeliveredAgainAsANewObjectAfterARelaunchGrantsNothingTwice() async throws {
        let first = try StoreKit1World(fake: FakePaymentQueue(reportsRemovals: false))
        let queue = try await first.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.coins)
        first.fake.deliver(FakeSKTransaction(payment, state: .purchased, id: "1000000020", date: StoreKit1World.now))
        try await StoreKit1World.settle(queue, first.log) { $0.contains { $0.isRemoved } }
        await queue.stop()

        // StoreKit did not hear the finish: the next launch delivers it again.
        let second = try StoreKit1World(folder: first.folder)
        let relaunched = try await second.startQueue()
        second.fake.deliver(FakeSKTransaction(payment, state: .purchased, id: "1000000020", date: StoreKit1World.now))
        try await StoreKit1World.settle(relaunched, second.log) { !$0.isEmpty }
        #expect(await second.log.ignored == [.duplicate])
        #expect(await relaunched.entitlements().balance("coins") == 500)
        #expect(second.fake.finished == ["1000000020"], "finished again, so that StoreKit stops delivering it")
        await relaunched.stop()
    }

    @Test func aRestoreArrivingBeforeItsPurchaseDeliversBothAndFinishesBoth() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        // A non-consumable: StoreKit restores no consumable and no non-renewing subscription
        // (https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()).
        let payment = StoreKit1Payment(productID: StoreKit1World.noAds)
        let purchase = FakeSKTransaction(payment, state: .purchased, id: "1000000030", date: StoreKit1World.now)
        let restore = FakeSKTransaction(payment, state: .restored, id: "1000000031", date: StoreKit1World.now, original: purchase)
        world.fake.deliver(restore)
        world.fake.deliver(purchase)
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == 2 }
        #expect(Set(world.fake.finished) == ["1000000030", "1000000031"])
        #expect(await world.log.updated.map(\.id) == [StoreKit1TransactionRegistry.restoreKey(of: "1000000030"), "1000000030"])
        #expect(await queue.entitlements().isUnlocked("ad-free"))
        await queue.stop()
    }

    @Test func aTransactionStoreKitRemovedBeforeItsUpdateIsStillDeliveredAndNotFinishedAgain() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        let purchase = FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.coins), state: .purchased, id: "1000000040", date: StoreKit1World.now)
        // Another observer of the app finished it: StoreKit reports the removal first.
        world.backend.removedTransactions([purchase])
        world.fake.deliver(purchase)
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(await queue.entitlements().balance("coins") == 500, "the user paid: the purchase is delivered")
        #expect(world.fake.finished.isEmpty, "StoreKit already removed it: finishTransaction is not called on it")
        await queue.stop()
    }

    @Test func eventsBeforeTheQueueConnectsAreKeptAndDeliveredInOrder() async throws {
        let world = try StoreKit1World()
        let payment = StoreKit1Payment(productID: StoreKit1World.coins)
        // StoreKit calls the observer at launch, before the queue started.
        world.fake.deliver(FakeSKTransaction(payment, state: .purchased, id: "1000000050", date: StoreKit1World.now))
        world.fake.deliver(FakeSKTransaction(payment, state: .purchased, id: "1000000051", date: StoreKit1World.now))
        let queue = try await world.startQueue()
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == 2 }
        #expect(await world.log.updated.map(\.id) == ["1000000050", "1000000051"])
        #expect(await queue.entitlements().balance("coins") == 1000)
        await queue.stop()
    }

    @Test func aFinishAfterARelaunchIsLookedUpInTheQueuesTransactions() async throws {
        let world = try StoreKit1World()
        let unfinished = FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.noAds), state: .purchased, id: "1000000060")
        world.fake.calls.withLock { $0.unfinished = [unfinished] }
        // The journal's replay finishes it before StoreKit delivered it to this process.
        try await world.backend.finish(transactionID: "1000000060")
        #expect(world.fake.finished == ["1000000060"])
        // One found nowhere was finished already: nothing to do.
        try await world.backend.finish(transactionID: "1000000061")
        #expect(world.fake.finished == ["1000000060"])
    }

    @Test func aPurchasingTransactionIsNeverFinishedStoreKitWouldRaise() async throws {
        let world = try StoreKit1World()
        let purchasing = FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.noAds))
        world.fake.deliver(purchasing)
        let local = try #require(world.backend.withState { $0.early.first }.flatMap { event -> String? in
            if case .updated(let transaction) = event { transaction.id } else { nil }
        })
        do {
            try await world.backend.finish(transactionID: local)
            Issue.record("a purchasing transaction was finished")
        } catch {
            #expect(!error.isTransient)
            #expect(error.reason.contains("purchasing"))
        }
        #expect(world.fake.finished.isEmpty)
    }
}

/// Restores: the request, the restored transactions, the end of the restore.
@Suite struct StoreKit1RestoreTests {
    /// A receipt listing the purchase a restore restores: a non-consumable's
    /// record here is the receipt, which the restore brings up to date.
    static func receipt(listing id: String) -> FakeReceipt {
        FakeReceipt(bytes: TestAppReceipt.receipt([TestAppReceipt.purchase(product: StoreKit1World.noAds, transaction: id,
                                                                         bought: StoreKit1World.now - 86_400)]))
    }

    @Test func aRestoreDeliversItsTransactionsThenItsEnd() async throws {
        let world = try StoreKit1World(receipt: Self.receipt(listing: "9000000070"))
        let queue = try await world.startQueue()
        await queue.restoreCompletedTransactions(applicationUsername: "user-7")
        #expect(world.fake.calls.withLock { $0.restores } == ["user-7"])
        let original = FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.noAds), state: .purchased, id: "9000000070")
        world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.noAds, applicationUsername: "user-7"),
                                           state: .restored, id: "1000000070", date: StoreKit1World.now, original: original))
        world.backend.restoreFinished()
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRestoreFinished } }
        let events = await world.log.events
        let finishedAt = try #require(events.firstIndex { $0.isRestoreFinished })
        let updatedAt = try #require(events.firstIndex { if case .updated = $0 { true } else { false } })
        #expect(updatedAt < finishedAt, "the restored transaction comes before the restore's end: \(events)")
        #expect(await queue.entitlements().isUnlocked("ad-free"))
        #expect(world.fake.finished == ["1000000070"])
        await queue.stop()
    }

    /// Each restore gives the restored transaction a `transactionIdentifier` of
    /// its own; `original` is the purchase it restores
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransaction/original).
    /// Restoring one purchase twice, in one launch or in two, is one
    /// restore to the queue: its plan runs once, and every copy is finished.
    @Test func restoringAPurchaseTwiceDispatchesItOnceAndFinishesEachCopy() async throws {
        let first = try StoreKit1World(receipt: Self.receipt(listing: "9000000080"))
        let queue = try await first.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.noAds)
        let original = FakeSKTransaction(payment, state: .purchased, id: "9000000080", date: StoreKit1World.now - 86_400)
        for (restoreID, restores) in [("1000000080", 1), ("1000000081", 2)] {
            await queue.restoreCompletedTransactions()
            first.fake.deliver(FakeSKTransaction(payment, state: .restored, id: restoreID, date: StoreKit1World.now, original: original))
            first.backend.restoreFinished()
            try await StoreKit1World.settle(queue, first.log) { $0.filter(\.isRestoreFinished).count == restores }
        }
        #expect(await first.log.updated.map(\.id) == [StoreKit1TransactionRegistry.restoreKey(of: "9000000080")], "dispatched once")
        #expect(await first.log.ignored == [.duplicate])
        #expect(first.fake.finished == ["1000000080", "1000000081"], "each copy StoreKit delivered is finished")
        await queue.stop()

        // The next launch restores it a third time: the journal knows it.
        let second = try StoreKit1World(folder: first.folder, receipt: Self.receipt(listing: "9000000080"))
        let relaunched = try await second.startQueue()
        await relaunched.restoreCompletedTransactions()
        second.fake.deliver(FakeSKTransaction(payment, state: .restored, id: "1000000082", date: StoreKit1World.now, original: original))
        second.backend.restoreFinished()
        try await StoreKit1World.settle(relaunched, second.log) { $0.contains { $0.isRestoreFinished } }
        #expect(await second.log.updated.isEmpty)
        #expect(await second.log.ignored == [.duplicate])
        #expect(second.fake.finished == ["1000000082"])
        #expect(await relaunched.entitlements().isUnlocked("ad-free"))
        await relaunched.stop()
    }

    @Test func twoRestoresOfOnePurchaseDeliveredTogetherAreBothFinished() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.noAds)
        let original = FakeSKTransaction(payment, state: .purchased, id: "9000000090", date: StoreKit1World.now - 86_400)
        let copies = ["1000000090", "1000000091"].map { FakeSKTransaction(payment, state: .restored, id: $0, date: StoreKit1World.now, original: original) }
        world.fake.deliver(copies[0], copies[1])
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(await world.log.updated.count == 1)
        #expect(Set(world.fake.finished) == ["1000000090", "1000000091"], "StoreKit would deliver an unfinished copy at every launch")
        await queue.stop()
    }

    @Test func theFakeRefusesARestoreStoreKitNeverMakes() throws {
        let world = try StoreKit1World()
        let original = FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.seasonPass), state: .purchased, id: "9000000100")
        for productID in [StoreKit1World.seasonPass, StoreKit1World.coins] {
            withKnownIssue("restoreCompletedTransactions() has no effect on a non-renewing subscription or a consumable") {
                world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: productID), state: .restored, id: "1000000100",
                                                     date: StoreKit1World.now, original: original))
            }
        }
        #expect(world.backend.withState { $0.early.isEmpty }, "nothing reached the backend")
    }

    @Test func aRestoreWithNothingToRestoreJustEnds() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        await queue.restoreCompletedTransactions()
        #expect(world.fake.calls.withLock { $0.restores } == [nil])
        world.backend.restoreFinished()
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRestoreFinished } }
        #expect(await world.log.events == [.restoreFinished])
        #expect(world.fake.finished.isEmpty)
        await queue.stop()
    }

    @Test func aFailedRestoreSaysWhy() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        world.backend.restoreFailed(StoreKit1Error(domain: StoreKit1Error.urlDomain, code: -1009, message: "offline"))
        world.backend.restoreFailed(StoreKit1Error(domain: StoreKit1Error.storeKitDomain, code: 2))
        try await StoreKit1World.settle(queue, world.log) { $0.count == 2 }
        #expect(await world.log.events == [.restoreFailed(.networkError), .restoreFailed(.paymentCancelled)])
        await queue.stop()
    }

    /// `paymentQueue(_:shouldAddStorePayment:for:)`: "Return false to defer
    /// or cancel the transaction. If you return false, you can continue the
    /// transaction later by manually adding the SKPayment payment to the
    /// SKPaymentQueue"
    /// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:shouldaddstorepayment:for:)).
    /// The backend always defers, and the payment is added only once the
    /// queue checked it and the app said to buy it now.
    @Test func aPromotedPurchaseIsAddedOnlyOnceTheQueueCheckedItAndTheAppAgreed() async throws {
        let world = try StoreKit1World()
        // At launch, before the queue is up: StoreKit asks at once.
        #expect(!world.backend.shouldAddStorePayment(StoreKit1Payment(productID: StoreKit1World.noAds)))
        #expect(world.fake.payments.isEmpty, "nothing bought before the queue can check it")
        let queue = try await world.startQueue()
        #expect(!world.backend.shouldAddStorePayment(StoreKit1Payment(productID: "com.example.rocketracer.unknown")))
        #expect(!world.backend.shouldAddStorePayment(StoreKit1Payment(productID: StoreKit1World.coins, quantity: 99)))
        try await StoreKit1World.settle(queue, world.log) { _ in world.fake.payments.count == 1 }
        await queue.whenIdle()
        #expect(world.fake.payments == [StoreKit1Payment(productID: StoreKit1World.noAds)])
        let refused = await world.log.refusedPromotions
        #expect(refused.map(\.0.payment.productID) == ["com.example.rocketracer.unknown", StoreKit1World.coins])
        #expect(refused.map { "\($0.1)" }.allSatisfy { $0.contains("com.example.rocketracer") })
        guard case .quantityOutOfRange(_, 99, _)? = refused.last?.1 else {
            Issue.record("the quantity of 99 is refused as such: \(refused)")
            return
        }
        await queue.stop()
    }

    @Test func anAppThatPutsPromotedPurchasesOffBuysNothingUntilItAddsThem() async throws {
        let world = try StoreKit1World()
        let kept = Locked<[PromotedPurchase]>([])
        let queue = try await world.startQueue { purchase in
            kept.withLock { $0.append(purchase) }
            return .later
        }
        #expect(!world.backend.shouldAddStorePayment(StoreKit1Payment(productID: StoreKit1World.noAds)))
        try await StoreKit1World.settle(queue, world.log) { _ in !kept.withLock { $0 }.isEmpty }
        #expect(world.fake.payments.isEmpty)
        let purchase = try #require(kept.withLock { $0 }.first)
        try await queue.add(purchase.payment)
        #expect(world.fake.payments == [StoreKit1Payment(productID: StoreKit1World.noAds)])
        await queue.stop()
    }
}
