import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import Testing

/// What StoreKit 2 says beyond a transaction's dates: a prorated refund's
/// `revocationPercentage`, a refund reversed (the transaction signed again
/// without `revocationDate`), a subscription's billing grace period, and a
/// tier the user upgraded from (`isUpgraded`). Expectations from Apple's
/// pages, cited in each test.
@Suite struct StoreKit2RefundAndRenewalTests {
    typealias H = StoreKit2Harness
    static let proPlus = "com.example.rocketracer.proplus.monthly"

    // MARK: Refunds

    @Test func aProratedRefundTakesItsPercentageOfTheGrantsNotAll() async throws {
        // "If the purchase had a quantity greater than 1, this percentage applies
        // to the full quantity. For example, if 1 of 3 items was refunded, the
        // value would be approximately 33.333."
        // (https://developer.apple.com/documentation/storekit/transaction/revocationpercentage)
        let h = try H()
        let app = try await h.launch()
        let bought = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        await h.fake.willAnswer(.result(.success(.verified(bought))))
        try await app.queue.add(Payment(productID: H.coins, quantity: 3, applicationUsername: "player-1"))
        await app.queue.whenIdle()
        let before = await app.queue.entitlements().balance("coins")

        await h.fake.emit(.verified(bought.signedAgain(after: 60) {
            $0.revocationDate = H.now
            $0.revocationPercentage = Decimal(string: "33.333")
            $0.revocationType = .proratedRefund
        }))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == before - before / 3, "one pack of three taken back")
        await h.end(app)
    }

    @Test func aReversedRefundGivesBackWhatItTookEvenAfterARelaunch() async throws {
        // REFUND_REVERSED: "Indicates that the App Store reversed a previously
        // granted refund ... Reinstate the content or services that you revoked
        // for the refund" (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype);
        // the reversed version has no revocationPercentage ("This field doesn't
        // appear if the refund is reversed":
        // https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage).
        let h = try H()
        var app = try await h.launch()
        let coins = await h.fake.transaction(H.coins, type: .consumable, quantity: 3)
        let car = await h.fake.transaction(H.car, type: .nonConsumable)
        await h.fake.emit(.verified(coins))
        await h.fake.emit(.verified(car))
        await app.queue.whenIdle()
        let before = await app.queue.entitlements()
        #expect(before.isUnlocked("rocket-car") && before.balance("coins") > 0)

        // Refunded as Apple signs them: the revoked version signed at (or after) the refund.
        let refundedCoins = coins.signedAgain(after: 60) {
            $0.revocationDate = $0.signedDate
            $0.revocationPercentage = Decimal(string: "33.333")
        }
        await h.fake.emit(.verified(refundedCoins))
        await h.fake.emit(.verified(car.signedAgain(after: 60) { $0.revocationDate = $0.signedDate }))
        await app.queue.whenIdle()
        let refunded = await app.queue.entitlements()
        #expect(!refunded.isUnlocked("rocket-car") && refunded.balance("coins") < before.balance("coins"))

        // The coins' refund is reversed in this launch; the car's after a relaunch,
        // when the backend has forgotten it saw the refund.
        await h.fake.emit(.verified(refundedCoins.signedAgain(after: 60) {
            $0.revocationDate = nil
            $0.revocationPercentage = nil
        }))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().balance("coins") == before.balance("coins"), "exactly what the refund took")
        await h.end(app)

        app = try await h.launch()
        // A copy signed before the refund gives nothing back, though this
        // launch's backend never saw the refund: the queue's revocation is dated after it.
        await h.fake.emit(.verified(car.signedAgain(after: 30)))
        await app.queue.whenIdle()
        #expect(!(await app.queue.entitlements()).isUnlocked("rocket-car"), "a stale copy reverses nothing")
        await h.fake.emit(.verified(car.signedAgain(after: 180)))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements() == before)
        #expect(await h.fake.unfinishedIDs.isEmpty, "every version is finished")
        await h.end(app)
    }

    // MARK: Grace period

    @Test func aSubscriptionInItsGracePeriodStaysEntitledUntilTheGracePeriodEnds() async throws {
        // "Ensure that your app provides full service for the subscription
        // throughout the grace period, which ends on the gracePeriodExpirationDate"
        // (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate);
        // inGracePeriod: "An auto-renewable subscription in this state is entitled to service"
        // (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/ingraceperiod).
        let h = try H()
        let graceEnd = H.now.addingTimeInterval(6 * 86_400)
        var lapsed = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-3_600))
        lapsed.subscriptionStatus = StoreKit2SubscriptionStatus(state: .inGracePeriod, gracePeriodExpirationDate: graceEnd)
        // Billing retry without a grace period: no service.
        var retrying = await h.fake.transaction(Self.proPlus, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-3_600))
        retrying.subscriptionStatus = StoreKit2SubscriptionStatus(state: .inBillingRetryPeriod, gracePeriodExpirationDate: nil)
        let app = try await h.launch()
        await h.fake.emit(.verified(lapsed))
        await h.fake.emit(.verified(retrying))
        await app.queue.whenIdle()
        let now = await app.queue.entitlements()
        #expect(now.owns(H.pro) && now.isUnlocked("pro-garage"), "entitled in the grace period")
        #expect(now.activeSubscriptions.map(\.expirationDate) == [graceEnd])
        #expect(!now.owns(Self.proPlus) && !now.isUnlocked("daily-cup"), "billing retry is not entitled")
        await h.end(app)
    }

    @Test func aGracePeriodThatEndsEarlyEndsTheSubscriptionAtTheNextRead() async throws {
        // The grace period is the renewal info's, the subscription's status now, not the transaction's
        // (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate:
        // "nil if the subscription is not in a billing grace period"); once StoreKit no longer lists the
        // subscription in a grace period (here it left currentEntitlements, as an expired one does), reading
        // StoreKit again ends it, whatever end the grace period had when the transaction was delivered.
        let h = try H()
        var lapsed = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-3_600))
        lapsed.subscriptionStatus = StoreKit2SubscriptionStatus(state: .inGracePeriod, gracePeriodExpirationDate: H.now.addingTimeInterval(6 * 86_400))
        let app = try await h.launch()
        await h.fake.emit(.verified(lapsed))
        await app.queue.whenIdle()
        #expect((await app.queue.entitlements()).owns(H.pro), "entitled in the grace period")

        await h.fake.setEntitlements([])
        await app.queue.refreshEntitlements()
        let after = await app.queue.entitlements()
        #expect(!after.owns(H.pro) && !after.isUnlocked("pro-garage"), "the grace period StoreKit no longer gives is over")
        #expect(after.activeSubscriptions.isEmpty)
        await h.end(app)
    }

    @Test func aGracePeriodThatBeginsAfterDeliveryKeepsTheSubscriptionAtTheNextLaunch() async throws {
        // The period was delivered before the renewal failed; StoreKit signs no
        // new transaction for a grace period (it is the renewal info's:
        // https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate),
        // and currentEntitlements still lists the subscription.
        let h = try H()
        var period = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-3_600))
        var app = try await h.launch()
        await h.fake.emit(.verified(period))
        await app.queue.whenIdle()
        #expect(!(await app.queue.entitlements()).owns(H.pro), "expired, no grace period yet")
        await h.end(app)

        period.subscriptionStatus = StoreKit2SubscriptionStatus(state: .inGracePeriod, gracePeriodExpirationDate: H.now.addingTimeInterval(86_400))
        await h.fake.setEntitlements([.verified(period)])
        app = try await h.launch()
        let entitled = await app.queue.entitlements()
        #expect(entitled.owns(H.pro) && entitled.isUnlocked("pro-garage"))
        await h.end(app)
    }

    @Test func aGracePeriodKeepsASubscriptionWhoseRecordIsKeptElsewhere() async throws {
        // The grace period is Apple's, whatever the app keeps its records in:
        // inGracePeriod "is entitled to service"
        // (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/ingraceperiod),
        // and StoreKit signs no new transaction for it, so only
        // currentEntitlements and the subscription status show it
        // (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate).
        // Pro Monthly kept in iCloud here (a server-kept one is the same case).
        let h = try StoreKit2Harness { catalog in
            let anchor = "    introductory-offer: {mode: free-trial, period: P1W}\n    family-shareable: true\n"
            try #require(catalog.contains(anchor), "Pro Monthly is written as the tests expect")
            return catalog.replacingOccurrences(of: anchor, with: anchor + "    persistence: icloud\n")
        }
        // The period was delivered; it has ended unrenewed.
        var period = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: H.now.addingTimeInterval(-3_600))
        let app = try await h.launch()
        await h.fake.emit(.verified(period))
        await app.queue.whenIdle()
        #expect(!(await app.queue.entitlements()).owns(H.pro), "expired, no grace period yet")

        // The renewal failed: the grace period begins.
        let graceEnd = H.now.addingTimeInterval(6 * 86_400)
        period.subscriptionStatus = StoreKit2SubscriptionStatus(state: .inGracePeriod, gracePeriodExpirationDate: graceEnd)
        await h.fake.setEntitlements([.verified(period)])
        await app.queue.refreshEntitlements()
        let now = await app.queue.entitlements()
        #expect(now.owns(H.pro) && now.isUnlocked("pro-garage"), "entitled in the grace period")
        #expect(now.activeSubscriptions.first { $0.productID == H.pro }?.expirationDate == graceEnd)
        await h.end(app)
    }

    // MARK: Upgrades

    @Test func anUpgradedTransactionEndsItsTiersOwnership() async throws {
        // "If isUpgraded is true, the user has upgraded the subscription represented
        // by this transaction to another subscription ... look for another transaction
        // that has a subscription with a higher level of service"
        // (https://developer.apple.com/documentation/storekit/transaction/isupgraded).
        let h = try H()
        let app = try await h.launch()
        let month = H.now.addingTimeInterval(30 * 86_400)
        let pro = await h.fake.transaction(H.pro, type: .autoRenewableSubscription, expires: month)
        await h.fake.emit(.verified(pro))
        await app.queue.whenIdle()
        #expect(await app.queue.entitlements().owns(H.pro))

        let plus = await h.fake.transaction(Self.proPlus, type: .autoRenewableSubscription, originalID: pro.originalID, expires: month)
        await h.fake.emit(.verified(plus))
        await h.fake.emit(.verified(pro.signedAgain(after: 120) { $0.isUpgraded = true }))
        await app.queue.whenIdle()
        let after = await app.queue.entitlements()
        #expect(!after.owns(H.pro), "the tier upgraded from is no longer owned")
        #expect(after.owns(Self.proPlus) && after.isUnlocked("pro-garage") && after.isUnlocked("daily-cup"))
        #expect(after.activeSubscriptions.map(\.productID) == [Self.proPlus])
        #expect(await h.log.revocations.map(\.reason) == [.upgraded])
        await h.end(app)
    }
}
