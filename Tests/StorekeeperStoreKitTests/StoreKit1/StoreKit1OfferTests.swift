import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// Offers through the queue over StoreKit 1: a promotional offer the catalog
/// declares goes to StoreKit as the payment's `SKPaymentDiscount`
/// (https://developer.apple.com/documentation/storekit/skmutablepayment/paymentdiscount;
/// `init(identifier:keyIdentifier:nonce:signature:timestamp:)`, the signature
/// a Base64 string: https://developer.apple.com/documentation/storekit/skpaymentdiscount);
/// StoreKit 1 has no other offer to apply, so a win-back offer fails rather
/// than being bought at full price.
@Suite struct StoreKit1OfferTests {
    static let pro = StoreKit1World.proMonthly
    static let signature = PaymentOffer.Signature(keyID: "KEY123", nonce: UUID(), timestamp: 1_800_000_000_000, signature: Data([7, 7]))

    static func world(_ name: String = #function) throws -> StoreKit1World {
        try StoreKit1World(name: name, policy: try StoreKit2Harness.withOffers(name).policy)
    }

    @Test func aPromotionalOfferBecomesThePaymentsDiscount() async throws {
        let world = try Self.world()
        let queue = try await world.startQueue()
        try await queue.add(Payment(productID: Self.pro, applicationUsername: "player-1",
                                    offer: .promotional("pro.spring", signature: Self.signature)))
        let discount = StoreKit1PaymentDiscount(identifier: "pro.spring", keyIdentifier: "KEY123", nonce: Self.signature.nonce,
                                                signature: "Bwc=", timestamp: 1_800_000_000_000)
        #expect(world.fake.payments == [StoreKit1Payment(productID: Self.pro, applicationUsername: "player-1", discount: discount)])
        await queue.stop()
    }

    @Test func aWinBackOfferFailsInsteadOfBeingBoughtAtFullPrice() async throws {
        let world = try Self.world()
        let queue = try await world.startQueue()
        try await queue.add(Payment(productID: Self.pro, offer: .winBack("pro.comeback")))
        try await StoreKit1World.settle(queue, world.log) { events in events.contains { $0.isRemoved } }
        #expect(world.fake.payments.isEmpty, "StoreKit is never asked")
        #expect(await world.log.updated.map { "\($0.info.state.rawValue) \($0.info.error?.rawValue ?? "")" } == ["failed payment-invalid"])
        #expect(await world.log.errorsShown == [.paymentInvalid])
        await queue.stop()
    }
}
