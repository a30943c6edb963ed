import Foundation
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

@Suite struct SubscriptionLifeTests {
    static let ann = Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly)

    /// SUBSCRIBED/INITIAL_BUY with status 1 and renewal info; buying again after expiry is RESUBSCRIBE with the same
    /// originalTransactionId (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/appstoreserverapi/originaltransactionid).
    @Test func subscribeThenResubscribe() throws {
        var model = try ModelFixture.model()
        let bought = try model.perform(.buy(Self.ann))
        #expect(bought.kinds == ["SUBSCRIBED/INITIAL_BUY 1"])
        let transaction = try #require(bought.transactions.first?.payload)
        #expect(transaction.expiresDate == ModelFixture.monthLater)
        #expect(transaction.subscriptionGroupIdentifier == Catalog.group)
        #expect(transaction.webOrderLineItemID != nil)
        let renewal = try #require(bought.notifications.first?.renewal)
        #expect(renewal.autoRenews && renewal.autoRenewProductID == Catalog.plusMonthly)
        #expect(renewal.renewalDate == ModelFixture.monthLater)
        #expect(model.entitlements(of: "u1").subscriptions == [
            .init(product: Catalog.plusMonthly, expirationDate: ModelFixture.monthLater.timeIntervalSince1970, status: "active"),
        ])
        #expect(model.entitlements(of: "u1").features == ["plus"])

        _ = try model.perform(.setAutoRenew(appleID: "ann", originalTransactionID: transaction.transactionID, on: false))
        _ = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(ModelFixture.day))
        let again = try model.perform(.buy(Self.ann))
        #expect(again.kinds == ["SUBSCRIBED/RESUBSCRIBE 1"])
        #expect(again.transactions.first?.payload.originalTransactionID == transaction.transactionID)
        #expect(again.transactions.first?.payload.transactionID != transaction.transactionID)
    }

    /// DID_RENEW at the period's end: a RENEWAL transaction of the same original, starting where the last ended,
    /// with a new webOrderLineItemId (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/appstoreserverapi/transactionreason,
    /// https://developer.apple.com/documentation/appstoreserverapi/weborderlineitemid).
    @Test func renewsAtThePeriodEnd() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Self.ann)).transactions.first?.payload)
        #expect(try model.advance(to: ModelFixture.monthLater.addingTimeInterval(-1)).isEmpty)
        let renewed = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(ModelFixture.day))
        #expect(renewed.kinds == ["DID_RENEW 1"])
        let renewal = try #require(renewed.transactions.first?.payload)
        #expect(renewal.reason == .renewal)
        #expect(renewal.originalTransactionID == first.transactionID)
        #expect(renewal.purchaseDate == ModelFixture.monthLater)
        #expect(renewal.webOrderLineItemID != first.webOrderLineItemID)
        #expect(renewal.signedDate == ModelFixture.monthLater)
        #expect(renewed.notifications.first?.payload.signedDate == ModelFixture.monthLater.addingTimeInterval(0.001))
        #expect(model.entitlements(of: "u1").subscriptions.first?.expirationDate == renewal.expiresDate?.timeIntervalSince1970)
    }

    /// Auto-renew off: DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED, then EXPIRED/VOLUNTARY (status 2,
    /// expirationIntent 1) at the period's end
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/appstoreserverapi/expirationintent).
    @Test func autoRenewOffExpires() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Self.ann)).transactions.first?.payload)
        let off = try model.perform(.setAutoRenew(appleID: "ann", originalTransactionID: first.transactionID, on: false))
        #expect(off.kinds == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED 1"])
        #expect(off.notifications.first?.renewal?.autoRenews == false)
        #expect(model.entitlements(of: "u1").products == [Catalog.plusMonthly])
        let expired = try model.advance(to: ModelFixture.monthLater)
        #expect(expired.kinds == ["EXPIRED/VOLUNTARY 2"])
        #expect(expired.notifications.first?.renewal?.expirationIntent == .customerCancelled)
        #expect(expired.transactions.isEmpty)
        #expect(model.entitlements(of: "u1") == ExpectedEntitlements(balances: [Catalog.coinsBalance: 0]))
    }

    /// A failed renewal with a 16-day grace period: DID_FAIL_TO_RENEW/GRACE_PERIOD, status 4, gracePeriodExpiresDate
    /// 16 days after the period's end, still entitled; GRACE_PERIOD_EXPIRED (status 3) at its end, not entitled
    /// but listed; EXPIRED/BILLING_RETRY after 60 days of retry
    /// (https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions,
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/storekit/reducing-involuntary-subscriber-churn).
    @Test func gracePeriodThenBillingRetryThenExpiry() throws {
        var model = try ModelFixture.model(gracePeriodDays: 16)
        _ = try model.perform(.buy(Self.ann))
        _ = try model.perform(.billingFails(appleID: "ann"))
        let failed = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(ModelFixture.day))
        #expect(failed.kinds == ["DID_FAIL_TO_RENEW/GRACE_PERIOD 4"])
        let graceEnd = ModelFixture.monthLater.addingTimeInterval(16 * ModelFixture.day)
        let renewal = try #require(failed.notifications.first?.renewal)
        #expect(renewal.gracePeriodExpiresDate == graceEnd)
        #expect(renewal.isInBillingRetryPeriod == true)
        #expect(renewal.expirationIntent == .billingError)
        #expect(failed.transactions.isEmpty)
        // With the payment method failing, a purchase does not complete.
        #expect(throws: StoreModelError.self) { try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.coins))) }
        #expect(model.entitlements(of: "u1").subscriptions == [
            .init(product: Catalog.plusMonthly, expirationDate: graceEnd.timeIntervalSince1970, status: "grace-period"),
        ])
        #expect(model.entitlements(of: "u1").features == ["plus"])

        let graceOver = try model.advance(to: graceEnd)
        #expect(graceOver.kinds == ["GRACE_PERIOD_EXPIRED 3"])
        #expect(model.entitlements(of: "u1").subscriptions == [
            .init(product: Catalog.plusMonthly, expirationDate: ModelFixture.monthLater.timeIntervalSince1970, status: "billing-retry"),
        ])
        #expect(model.entitlements(of: "u1").features == [])

        let retryOver = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(61 * ModelFixture.day))
        #expect(retryOver.kinds == ["EXPIRED/BILLING_RETRY 2"])
        #expect(retryOver.notifications.first?.renewal?.expirationIntent == .billingError)
        #expect(retryOver.notifications.first?.renewal?.isInBillingRetryPeriod == false)
        #expect(model.entitlements(of: "u1").subscriptions == [])
    }

    /// Without grace period: DID_FAIL_TO_RENEW without subtype, status 3; recovered in billing retry, the paid days
    /// paused, so the new period starts at the recovery: DID_RENEW/BILLING_RECOVERY, status 1
    /// (https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions).
    @Test func billingRetryThenRecovery() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.buy(Self.ann))
        _ = try model.perform(.billingFails(appleID: "ann"))
        #expect(try model.advance(to: ModelFixture.monthLater).kinds == ["DID_FAIL_TO_RENEW 3"])
        let recoveredAt = ModelFixture.monthLater.addingTimeInterval(5 * ModelFixture.day)
        _ = try model.advance(to: recoveredAt)
        let recovered = try model.perform(.billingRecovers(appleID: "ann"))
        #expect(recovered.kinds == ["DID_RENEW/BILLING_RECOVERY 1"])
        #expect(recovered.transactions.first?.payload.purchaseDate == recoveredAt)
        #expect(recovered.transactions.first?.payload.reason == .renewal)
        #expect(model.entitlements(of: "u1").subscriptions.first?.status == "active")
    }

    /// Recovered inside the grace period, the paid days are not interrupted: the new period starts at the old one's end.
    @Test func recoveryInGraceKeepsTheRenewalDate() throws {
        var model = try ModelFixture.model(gracePeriodDays: 3)
        _ = try model.perform(.buy(Self.ann))
        _ = try model.perform(.billingFails(appleID: "ann"))
        _ = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(ModelFixture.day))
        let recovered = try model.perform(.billingRecovers(appleID: "ann"))
        #expect(recovered.kinds == ["DID_RENEW/BILLING_RECOVERY 1"])
        #expect(recovered.transactions.first?.payload.purchaseDate == ModelFixture.monthLater)
    }

    /// Cancelling during billing retry stops the retries ("until the customer resolves their billing issue or
    /// cancels": https://developer.apple.com/documentation/storekit/reducing-involuntary-subscriber-churn).
    @Test func cancellingInBillingRetryExpires() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Self.ann)).transactions.first?.payload)
        _ = try model.perform(.billingFails(appleID: "ann"))
        _ = try model.advance(to: ModelFixture.monthLater)
        let cancelled = try model.perform(.setAutoRenew(appleID: "ann", originalTransactionID: first.transactionID, on: false))
        #expect(cancelled.kinds == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED 3", "EXPIRED/VOLUNTARY 2"])
        #expect(model.entitlements(of: "u1").subscriptions == [])
    }
}
