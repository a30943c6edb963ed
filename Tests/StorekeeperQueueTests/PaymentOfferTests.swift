import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// A payment may redeem a promotional or win-back offer the catalog declares
/// for its product; anything else is refused before the store is asked, with
/// an error naming the product and the offers it does declare. The compiled
/// policy carries the declared offers.
@Suite struct PaymentOfferTests {
    static let monthly = "com.example.rocketracer.pro.monthly"
    static let signature = PaymentOffer.Signature(keyID: "KEY123", nonce: UUID(),
                                                  timestamp: 1_800_000_000_000, signature: Data([1, 2, 3]))

    /// Rocket Racer with three offers on Pro Monthly, as docs/format.md writes them.
    static func policy() throws -> CompiledPolicy {
        let catalog = try String(contentsOfFile: "\(QueueFixtures.packageRoot)/Catalogs/rocket-racer/catalog.yaml", encoding: .utf8)
        let anchor = "    introductory-offer: {mode: free-trial, period: P1W}\n    family-shareable: true\n"
        try #require(catalog.contains(anchor), "Pro Monthly is written as the test expects")
        let offers = """
            offers:
              - {id: pro.spring, kind: promotional, reference-name: Spring, mode: pay-as-you-go, period: P1M, periods: 3, price: "1.99"}
              - {id: pro.comeback, kind: win-back, reference-name: Come Back, mode: free-trial, period: P1M}
              - {id: pro.code, kind: offer-code, reference-name: Code, mode: free-trial, period: P1M}

        """
        return try QueueFixtures.policy(catalog.replacingOccurrences(of: anchor, with: anchor + offers))
    }

    @Test func theCompiledPolicyKeepsTheCatalogsOffersThroughItsJSON() throws {
        let policy = try Self.policy()
        let declared = [OfferPolicy(kind: .promotional, id: "pro.spring"), OfferPolicy(kind: .winBack, id: "pro.comeback"),
                        OfferPolicy(kind: .offerCode, id: "pro.code")]
        let handle = try #require(policy.product(id: Self.monthly))
        #expect(policy.product(handle).offers == declared)
        let read = try PolicyDecoder(plugins: QueueFixtures.plugins()).decode(PolicyEncoder().encode(policy))
        #expect(read.product(try #require(read.product(id: Self.monthly))).offers == declared)
        // A product without offers writes none: policies compiled before offers read the same.
        let yearly = try #require(read.product(id: "com.example.rocketracer.pro.yearly"))
        #expect(read.product(yearly).offers.isEmpty)
        #expect(!PolicyEncoder().encode(try QueueFixtures.example("rocket-racer")).contains("\"offers\""))
    }

    @Test func aDeclaredOfferGoesToTheStoreWithThePayment() async throws {
        let (queue, store) = try await Self.start()
        let winBack = Payment(productID: Self.monthly, applicationUsername: "player-1", offer: .winBack("pro.comeback"))
        let promotional = Payment(productID: Self.monthly, offer: .promotional("pro.spring", signature: Self.signature))
        try await queue.add(winBack)
        try await queue.add(promotional)
        #expect(await store.payments == [winBack, promotional])
        await queue.stop()
    }

    @Test func anOfferTheCatalogDoesNotDeclareForTheProductIsRefusedNamingTheOnesItDoes() async throws {
        let (queue, store) = try await Self.start()
        let refusals: [(Payment, PaymentError)] = [
            // Another kind than the one declared under that id.
            (Payment(productID: Self.monthly, offer: .winBack("pro.spring")),
             .undeclaredOffer(product: Self.monthly, kind: .winBack, id: "pro.spring", declared: ["pro.spring", "pro.comeback", "pro.code"])),
            (Payment(productID: Self.monthly, offer: .promotional("pro.summer", signature: Self.signature)),
             .undeclaredOffer(product: Self.monthly, kind: .promotional, id: "pro.summer", declared: ["pro.spring", "pro.comeback", "pro.code"])),
            // A product that declares none.
            (Payment(productID: "com.example.rocketracer.pro.yearly", offer: .winBack("pro.comeback")),
             .undeclaredOffer(product: "com.example.rocketracer.pro.yearly", kind: .winBack, id: "pro.comeback", declared: [])),
            (Payment(productID: Self.monthly, offer: PaymentOffer(kind: .offerCode, id: "pro.code")),
             .offerCodeNotPurchasable(product: Self.monthly, id: "pro.code")),
            (Payment(productID: Self.monthly, offer: PaymentOffer(kind: .promotional, id: "pro.spring")),
             .unsignedOffer(product: Self.monthly, id: "pro.spring")),
        ]
        for (payment, expected) in refusals {
            await #expect(throws: expected) { try await queue.add(payment) }
        }
        #expect(await store.payments.isEmpty, "the store was never asked")
        #expect(refusals[0].1.description
            == "the catalog declares no win-back offer 'pro.spring' for \(Self.monthly); its offers are 'pro.spring', 'pro.comeback', 'pro.code'")
        #expect(refusals[2].1.description
            == "the catalog declares no win-back offer 'pro.comeback' for com.example.rocketracer.pro.yearly; it declares no offers for it")
        await queue.stop()
    }

    @Test func aPromotedPurchaseWithAnUndeclaredOfferIsRefusedLikeAnyPayment() async throws {
        let (queue, store, log) = try await Self.startLogged()
        let promoted = PromotedPurchase(payment: Payment(productID: Self.monthly, offer: .winBack("pro.gone")))
        await store.send(.promoted(promoted))
        await queue.whenIdle()
        #expect(await log.events == [.promotedPurchaseRefused(
            promoted, .undeclaredOffer(product: Self.monthly, kind: .winBack, id: "pro.gone", declared: ["pro.spring", "pro.comeback", "pro.code"]))])
        #expect(await store.payments.isEmpty)
        await queue.stop()
    }

    static func start() async throws -> (TransactionQueue, ScriptedStore) {
        let (queue, store, _) = try await startLogged()
        return (queue, store)
    }

    static func startLogged() async throws -> (TransactionQueue, ScriptedStore, EventLog) {
        let store = ScriptedStore()
        let log = EventLog()
        let queue = try TransactionQueue(policy: try policy(), store: store, configuration: QueueFixtures.configuration(try QueueFixtures.folder()))
        try await queue.start(observers: [log])
        return (queue, store, log)
    }
}
