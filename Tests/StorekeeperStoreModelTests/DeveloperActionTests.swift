import Foundation
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

@Suite struct DeveloperActionTests {
    /// Extending a renewal date moves the current period's end: RENEWAL_EXTENDED; at most 90 days
    /// (https://developer.apple.com/documentation/appstoreserverapi/extend-a-subscription-renewal-date,
    /// https://developer.apple.com/documentation/appstoreserverapi/extendbydays).
    @Test func renewalExtension() throws {
        var model = try ModelFixture.model()
        let first = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        let id = first.payload.transactionID
        #expect(throws: StoreModelError.self) { try model.perform(.extendRenewal(originalTransactionID: id, days: 91)) }
        let extended = try model.perform(.extendRenewal(originalTransactionID: id, days: 10))
        #expect(extended.kinds == ["RENEWAL_EXTENDED 1"])
        let newEnd = ModelFixture.monthLater.addingTimeInterval(10 * ModelFixture.day)
        #expect(extended.transactions.first?.payload.expiresDate == newEnd)
        #expect(extended.transactions.first?.payload.transactionID == id)
        #expect(try model.advance(to: ModelFixture.monthLater.addingTimeInterval(ModelFixture.day)).isEmpty)
        #expect(model.entitlements(of: "u1").subscriptions.first?.expirationDate == newEnd.timeIntervalSince1970)
        #expect(try model.advance(to: newEnd).kinds == ["DID_RENEW 1"])
    }

    /// Not in a free offer period, and a family member's copy is extended with the purchaser's, never directly
    /// (https://developer.apple.com/documentation/appstoreserverapi/subscriptionextensionineligibleerror,
    /// https://developer.apple.com/documentation/appstoreserverapi/familysharedsubscriptionextensionineligibleerror).
    @Test func extensionEligibilityAndFamily() throws {
        var model = try ModelFixture.model()
        let trial = Offer(kind: .introductory, discountType: .freeTrial, period: "P1W")
        let bought = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.premiumMonthly, offer: trial)))
        let id = try #require(bought.transactions.first?.payload.transactionID)
        #expect(throws: StoreModelError.self) { try model.perform(.extendRenewal(originalTransactionID: id, days: 5)) }
        _ = try model.advance(to: ModelFixture.start.addingTimeInterval(7 * ModelFixture.day))
        let joined = try model.perform(.joinFamily(appleID: "kid", organizer: "ann"))
        let copyID = try #require(joined.notifications.first?.transaction?.originalTransactionID)
        #expect(throws: StoreModelError.self) { try model.perform(.extendRenewal(originalTransactionID: copyID, days: 5)) }
        let extended = try model.perform(.extendRenewal(originalTransactionID: id, days: 5))
        #expect(extended.kinds == ["RENEWAL_EXTENDED 1", "RENEWAL_EXTENDED 1"])
        let ends = Set(extended.transactions.compactMap(\.payload.expiresDate))
        #expect(ends.count == 1)
        #expect(model.entitlements(of: "kid").subscriptions.map(\.expirationDate) == ends.map(\.timeIntervalSince1970))
    }

    /// A price increase needing consent: PRICE_INCREASE/PENDING (priceIncreaseStatus 0); without consent the
    /// subscription expires at renewal (EXPIRED/PRICE_INCREASE, expirationIntent 3); with it, PRICE_INCREASE/ACCEPTED
    /// and it renews (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// https://developer.apple.com/documentation/appstoreserverapi/priceincreasestatus,
    /// https://developer.apple.com/documentation/appstoreserverapi/expirationintent).
    @Test func priceIncrease() throws {
        var model = try ModelFixture.model()
        let ann = try #require(try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly))).transactions.first)
        _ = try model.perform(.buy(Purchase(appleID: "bob", account: "u2", productID: Catalog.plusMonthly)))
        let pending = try model.perform(.priceIncrease(productID: Catalog.plusMonthly))
        #expect(pending.kinds == ["PRICE_INCREASE/PENDING 1", "PRICE_INCREASE/PENDING 1"])
        #expect(pending.notifications.allSatisfy { $0.renewal?.priceIncreaseStatus == 0 })
        let accepted = try model.perform(.consentToPriceIncrease(appleID: "ann", originalTransactionID: ann.payload.transactionID))
        #expect(accepted.kinds == ["PRICE_INCREASE/ACCEPTED 1"])
        #expect(accepted.notifications.first?.renewal?.priceIncreaseStatus == 1)
        let atRenewal = try model.advance(to: ModelFixture.monthLater.addingTimeInterval(1))
        #expect(Set(atRenewal.kinds) == ["DID_RENEW 1", "EXPIRED/PRICE_INCREASE 2"])
        let expired = try #require(atRenewal.notifications.first { $0.payload.notificationType == .expired })
        #expect(expired.renewal?.expirationIntent == .declinedPriceIncrease)
        #expect(model.entitlements(of: "u1").products == [Catalog.plusMonthly])
        #expect(model.entitlements(of: "u2").products == [])
    }

    /// Offers: an introductory free trial sets offerType 1 and offerDiscountType FREE_TRIAL, its period is the
    /// offer's, and an Apple ID that subscribed before is not eligible for another; promotional offers and offer
    /// codes send OFFER_REDEEMED (https://developer.apple.com/documentation/appstoreserverapi/offertype,
    /// https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype,
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer,
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    @Test func offers() throws {
        var model = try ModelFixture.model()
        let trial = Offer(kind: .introductory, discountType: .freeTrial, period: "P1W")
        let bought = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly, offer: trial)))
        #expect(bought.kinds == ["SUBSCRIBED/INITIAL_BUY 1"])
        let transaction = try #require(bought.transactions.first?.payload)
        #expect(transaction.offerType == 1 && transaction.offerDiscountType == "FREE_TRIAL")
        #expect(transaction.expiresDate == ModelFixture.start.addingTimeInterval(7 * ModelFixture.day))
        let renewed = try model.advance(to: ModelFixture.start.addingTimeInterval(7 * ModelFixture.day))
        #expect(renewed.transactions.first?.payload.offerType == nil)
        _ = try model.perform(.setAutoRenew(appleID: "ann", originalTransactionID: transaction.transactionID, on: false))
        // The trial week, then one month: expired on Feb 17.
        #expect(try model.advance(to: ModelFixture.monthLater.addingTimeInterval(10 * ModelFixture.day)).kinds == ["EXPIRED/VOLUNTARY 2"])
        #expect(throws: StoreModelError.self) {
            try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly, offer: trial)))
        }
        let promo = Offer(kind: .promotional, identifier: "comeback", discountType: .payAsYouGo, periods: 2)
        let redeemed = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: Catalog.plusMonthly, offer: promo)))
        #expect(redeemed.kinds == ["OFFER_REDEEMED/RESUBSCRIBE 1"])
        #expect(redeemed.transactions.first?.payload.offerIdentifier == "comeback")
        #expect(redeemed.notifications.first?.renewal?.offerType == 2)
    }
}
