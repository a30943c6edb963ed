import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// Purchases through the StoreKit 2 backend and the real queue: each
/// product type delivered and finished with StoreKit exactly when its plan's
/// `finish` runs; failures, cancellations and bad signatures deliver nothing
/// (and a bad signature is never finished).
@Suite struct StoreKit2PurchaseTests {
    typealias H = StoreKit2Harness

    @Test func everyProductTypeIsDeliveredThenFinished() async throws {
        let h = try H()
        let app = try await h.launch()
        let expires = H.now.addingTimeInterval(30 * 86_400)
        let pro = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, token: AppAccountToken.derive(fromUser: "player-1"), expires: expires)
        try await app.queue.add(Payment(productID: H.coins, quantity: 2, applicationUsername: "player-1"))
        try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await h.fake.willAnswer(.result(.success(.verified(pro))))
        try await app.queue.add(Payment(productID: H.pro, applicationUsername: "player-1"))
        try await app.queue.add(Payment(productID: H.seasonPass, applicationUsername: "player-1"))
        await app.queue.whenIdle()

        let entitlements = await app.queue.entitlements()
        #expect(entitlements.balance("coins") == 1_000)
        #expect(entitlements.isUnlocked("ad-free") && entitlements.isUnlocked("pro-garage") && entitlements.isUnlocked("season-events"))
        #expect(entitlements.owns(H.noAds) && entitlements.owns(H.pro) && entitlements.owns(H.seasonPass))
        #expect(entitlements.activeSubscriptions.contains(ActiveSubscription(productID: H.pro, expirationDate: expires)))

        let updated = await h.log.updated
        #expect(updated.map(\.info.state) == [.purchased, .purchased, .purchased, .purchased])
        #expect(updated.allSatisfy { $0.info.applicationUsername == "player-1" })
        #expect(updated.allSatisfy { $0.info.signedTransaction?.hasPrefix("header.\($0.id)-") == true }, "the JWS goes to verify-receipt")
        #expect(updated.allSatisfy { $0.info.receipt == $0.info.signedTransaction.map { Array($0.utf8) } }, "and is what `record: receipt` copies")
        #expect(updated.first?.info.quantity == 2)
        let purchases = await h.fake.purchases
        #expect(purchases.map(\.token) == Array(repeating: Optional(AppAccountToken.derive(fromUser: "player-1")), count: 4))
        #expect(purchases.map(\.quantity) == [2, 1, 1, 1])
        // StoreKit's finish() for each, once, when its plan finished it.
        #expect(await h.fake.finished.map(String.init) == (await h.log.removed))
        #expect(Set(await h.fake.finished.map(String.init)) == Set(updated.map(\.id)))
        #expect(await h.fake.unfinishedIDs.isEmpty)
        await h.end(app)
    }

    @Test func aPaymentWithoutAUserCarriesNoToken() async throws {
        let h = try H()
        let app = try await h.launch(user: nil)
        try await app.queue.add(Payment(productID: H.noAds))
        await app.queue.whenIdle()
        #expect(await h.fake.purchases.map(\.token) == [nil])
        #expect(await h.log.updated.map(\.info.applicationUsername) == [nil])
        await h.end(app)
    }

    @Test func aTransactionIsFinishedOnlyWhenItsPlanFinishes() async throws {
        let h = try H()
        // A purchase of a product this version of the app does not sell:
        // its plan halts before `finish`, so StoreKit keeps it unfinished.
        let unknown = await h.fake.transaction("com.example.rocketracer.future", type: .nonConsumable)
        await h.fake.holdUnfinished(.verified(unknown))
        let app = try await h.launch()
        #expect(await h.log.updated.map(\.id) == [String(unknown.id)])
        #expect(await h.fake.finished.isEmpty)
        #expect(await h.fake.unfinishedIDs == [unknown.id])
        await h.end(app)
    }

    @Test func unfinishedTransactionsAreDeliveredAtLaunchAndExactlyOnceAcrossRelaunches() async throws {
        let h = try H()
        let bought = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        await h.fake.holdUnfinished(.verified(bought))
        let first = try await h.launch()
        #expect(await first.queue.entitlements().balance("coins") == 1_500)
        #expect(await h.fake.finished == [bought.id])
        await h.end(first)

        // The finish did not reach the App Store: it delivers the transaction again.
        await h.fake.holdUnfinished(.verified(bought))
        let second = try await h.launch()
        #expect(await second.queue.entitlements().balance("coins") == 1_500, "granted once")
        #expect(await h.log.ignored.map(\.1) == [.duplicate])
        #expect(await h.fake.finished == [bought.id, bought.id], "finished again, so StoreKit stops delivering it")
        await h.end(second)
    }

    @Test func aFinishForAnIDNotDeliveredInThisLaunchFindsItInUnfinished() async throws {
        let h = try H()
        let bought = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.holdUnfinished(.verified(bought))
        // Not listening: the backend has delivered nothing in this launch.
        let backend = StoreKit2Backend(store: h.fake, listensForUpdates: false)
        try await backend.finish(transactionID: String(bought.id))
        #expect(await h.fake.finished == [bought.id])
        // Local ids have no StoreKit transaction; an id finished already is not found.
        try await backend.finish(transactionID: "pending-0f8fad5b-d9cb-469f-a165-70867728950e")
        try await backend.finish(transactionID: String(bought.id))
        #expect(await h.fake.finished == [bought.id])
    }

    // A purchase StoreKit could not verify: Apple's sample throws
    // `failedVerification` to the buyer and never finishes the transaction
    // ("Implementing a store in your app using the StoreKit API",
    // https://developer.apple.com/documentation/storekit/implementing-a-store-in-your-app-using-the-storekit-api);
    // a transaction stays in `Transaction.unfinished` until it is finished
    // (https://developer.apple.com/documentation/storekit/transaction/unfinished),
    // so one that failed on the device (`invalidDeviceVerification`) comes
    // back, and is paid for.

    @Test func anUnverifiedPurchaseFailsWithVerificationFailedAndStaysUnfinished() async throws {
        let h = try H()
        let app = try await h.launch()
        let unproven = await h.fake.transaction(H.noAds, type: .nonConsumable)
        await h.fake.willAnswer(.result(.success(.unverified(unproven, reason: "invalidSignature"))))
        try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1"))
        await app.queue.whenIdle()

        let id = "unverified-\(unproven.id)"
        #expect(await h.log.updated.map(\.info) == [
            TransactionInfo(id: id, productID: H.noAds, state: .failed, error: .verificationFailed, applicationUsername: "player-1",
                            signedTransaction: unproven.jwsRepresentation),
        ])
        #expect(await h.log.presented.map(\.1) == [.verificationFailed], "the plan sees the error")
        #expect(!(await app.queue.entitlements()).owns(H.noAds))
        #expect(await h.fake.finished.isEmpty, "the failed plan's finish does not finish it with StoreKit")
        #expect(await h.fake.unfinishedIDs == [unproven.id])

        // The same transaction later verified (a restore) is a new transaction to the queue.
        await h.fake.setEntitlements([.verified(unproven)])
        await app.queue.restoreCompletedTransactions(applicationUsername: "player-1")
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().owns(H.noAds))
        await h.end(app)
    }

    @Test func aConsumableThatFailedVerificationOnTheDeviceIsGrantedOnceWhenItVerifies() async throws {
        let h = try H()
        let first = try await h.launch()
        let coins = await h.fake.transaction(H.coins, type: .consumable, quantity: 2)
        await h.fake.willAnswer(.result(.success(.unverified(coins, reason: "invalidDeviceVerification"))))
        try await first.queue.add(Payment(productID: H.coins, quantity: 2, applicationUsername: "player-1"))
        await first.queue.whenIdle()
        #expect(await first.queue.entitlements().balance("coins") == 0)
        #expect(await h.fake.finished.isEmpty)
        await h.end(first)

        // The next launch, StoreKit still holds it, and now it verifies: on
        // `Transaction.unfinished` and, once, on `Transaction.updates`.
        await h.fake.holdUnfinished(.verified(coins))
        let second = try await h.launch()
        #expect(await second.queue.entitlements().balance("coins") == 1_000, "paid for, and granted")
        #expect(await h.log.updated.map(\.id) == ["unverified-\(coins.id)", String(coins.id)])
        #expect(await h.fake.finished == [coins.id], "finished once granted")
        await h.end(second)

        let third = try await h.launch()
        #expect(await third.queue.entitlements().balance("coins") == 1_000, "granted once")
        #expect(await h.log.updated.count == 2, "nothing delivered again")
        await h.end(third)
    }

    @Test func cancelledAndThrownPurchasesFailWithTheirCodes() async throws {
        let h = try H()
        let app = try await h.launch()
        await h.fake.willAnswer(.result(.userCancelled))
        await h.fake.willAnswer(.failure(StoreKit2Failure(.networkError, message: "offline")))
        await h.fake.willAnswer(.failure(StoreKit2Failure(.purchaseNotAllowed, message: "restricted")))
        for _ in 0..<3 { try await app.queue.add(Payment(productID: H.noAds, applicationUsername: "player-1")) }
        await app.queue.whenIdle()

        let updated = await h.log.updated
        #expect(updated.map(\.info.state) == [.failed, .failed, .failed])
        #expect(updated.map(\.info.error) == [.paymentCancelled, .networkError, .paymentNotAllowed])
        #expect(updated.allSatisfy { $0.id.hasPrefix("failed-") && $0.info.signedTransaction == nil })
        #expect(Set(updated.map(\.id)).count == 3, "each failure is its own transaction")
        // Rocket Racer's quiet-cancel rule: no alert for a cancel; the others are shown.
        #expect(await h.log.presented.map(\.1) == [.networkError, .paymentNotAllowed])
        #expect(await h.log.removed.count == 3)
        #expect(await h.fake.finished.isEmpty, "no StoreKit transaction to finish")
        #expect(await app.queue.entitlements() == Entitlements())
        await h.end(app)
    }

    @Test(arguments: StoreKit2Failure.Kind.allCases)
    func everyStoreKitErrorHasAStoreErrorCode(kind: StoreKit2Failure.Kind) {
        let expected: [StoreKit2Failure.Kind: StoreErrorCode] = [
            .userCancelled: .paymentCancelled, .networkError: .networkError, .systemError: .unknown, .unknown: .unknown,
            .notAvailableInStorefront: .productNotAvailable, .productUnavailable: .productNotAvailable,
            .notEntitled: .clientInvalid, .unsupported: .clientInvalid, .invalidQuantity: .paymentInvalid,
            .invalidOffer: .paymentInvalid, .purchaseNotAllowed: .paymentNotAllowed,
        ]
        #expect(StoreKit2Failure(kind, message: "").code == expected[kind])
    }
}
