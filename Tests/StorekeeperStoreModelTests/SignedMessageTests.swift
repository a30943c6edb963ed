import Foundation
import StorekeeperJSON
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// What is signed is what the message says: the notification's JWS holds its payload, whose `data` holds the
/// signed transaction and renewal info; the device's JWS holds its transaction
/// (https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2,
/// https://developer.apple.com/documentation/appstoreservernotifications/data).
@Suite struct SignedMessageTests {
    static func text(_ value: JSONValue) -> String { JSONWriter(indentation: nil).serialize(value) }

    @Test func signedPartsCarryThePayloads() throws {
        var model = try ModelFixture.model()
        let messages = try model.perform(.buy(Purchase(appleID: "ann", account: "u1", productID: StoreModelCatalog.plusMonthly)))
        let notification = try #require(messages.notifications.first)
        #expect(Self.text(try CompactJWS(parsing: notification.signedPayload).payload) == Self.text(notification.payload.json))
        let transaction = try #require(notification.transaction)
        let renewal = try #require(notification.renewal)
        let signedTransaction = try #require(notification.payload.signedTransactionInfo)
        let signedRenewal = try #require(notification.payload.signedRenewalInfo)
        #expect(Self.text(try CompactJWS(parsing: signedTransaction).payload) == Self.text(transaction.json))
        #expect(Self.text(try CompactJWS(parsing: signedRenewal).payload) == Self.text(renewal.json))
        #expect(notification.body == "{\"signedPayload\":\"\(notification.signedPayload)\"}")
        let device = try #require(messages.transactions.first)
        #expect(Self.text(try CompactJWS(parsing: device.signed).payload) == Self.text(device.payload.json))
        let header = try CompactJWS(parsing: device.signed).header
        #expect(Self.text(header).contains("\"alg\":\"ES256\""))
    }

    /// Upgrading from a product not shared with the family to a shared one gives family members access
    /// (SUBSCRIBED/INITIAL_BUY for their copy); a downgrade to a product not shared takes it away at the renewal
    /// (REVOKE) (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    @Test func familyFollowsSharingAcrossPlanChanges() throws {
        var model = try ModelFixture.model()
        _ = try model.perform(.joinFamily(appleID: "kid", organizer: "org"))
        let first = try #require(try model.perform(.buy(Purchase(appleID: "org", account: "u1", productID: StoreModelCatalog.plusMonthly))).transactions.first)
        #expect(model.entitlements(of: "kid").products == [])
        let id = first.payload.transactionID
        let up = try model.perform(.changeSubscription(appleID: "org", originalTransactionID: id, to: StoreModelCatalog.premiumMonthly))
        #expect(up.kinds == ["DID_CHANGE_RENEWAL_PREF/UPGRADE 1", "SUBSCRIBED/INITIAL_BUY 1"])
        #expect(model.entitlements(of: "kid").products == [StoreModelCatalog.premiumMonthly])
        _ = try model.perform(.changeSubscription(appleID: "org", originalTransactionID: id, to: StoreModelCatalog.plusMonthly))
        let renewal = try model.advance(to: ModelFixture.start.addingTimeInterval(40 * ModelFixture.day))
        #expect(renewal.kinds == ["DID_RENEW 1", "REVOKE 5"])
        #expect(model.entitlements(of: "kid").products == [])
        #expect(model.entitlements(of: "u1").products == [StoreModelCatalog.plusMonthly])
    }
}
