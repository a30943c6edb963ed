import Foundation
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// A purchase the user started outside the app reaches the store only
/// through the checks a payment the app adds passes, and only if the app
/// says to buy it now. (The StoreKit backends' own tests show each backend
/// sends it here instead of buying it.)
@Suite struct PromotedPurchaseTests {
    static let coins = "com.example.rocketracer.coins.500"

    @Test func aPromotedPaymentTheAppCouldNotAddIsRefusedWithTheSameErrorAndNeverReachesTheStore() async throws {
        let folder = try QueueFixtures.folder()
        let store = ScriptedStore()
        let log = EventLog()
        let asked = Locked(0)
        var configuration = QueueFixtures.configuration(folder)
        configuration.promotedPurchases = { _ in
            asked.withLock { $0 += 1 }
            return .buyNow
        }
        let queue = try TransactionQueue(policy: try QueueFixtures.example("rocket-racer"), store: store, configuration: configuration)
        try await queue.start(observers: [log])
        let tooMany = Payment(productID: Self.coins, quantity: 11)
        let unknown = Payment(productID: "com.example.rocketracer.coins.5000")
        await store.send(.promoted(PromotedPurchase(payment: tooMany)))
        await store.send(.promoted(PromotedPurchase(payment: unknown)))
        await queue.whenIdle()

        var expected: [QueueEvent] = []
        for payment in [tooMany, unknown] {
            // What add(_:) throws for the same payment is what observers are told.
            do {
                try await queue.add(payment)
                Issue.record("add(_:) took \(payment)")
            } catch {
                expected.append(.promotedPurchaseRefused(PromotedPurchase(payment: payment), error))
            }
        }
        #expect(await log.events == expected)
        // Each says what would be right: the product's max-quantity, the nearest id the catalog sells.
        let reasons = expected.compactMap { if case .promotedPurchaseRefused(_, let error) = $0 { error.description } else { nil } }
        #expect(reasons == ["quantity 11 of \(Self.coins) is outside 1...10 (its max-quantity)",
                            "no product 'com.example.rocketracer.coins.5000' in the catalog; did you mean '\(Self.coins)'?"])
        #expect(await store.finishCalls == 0)
        #expect(await store.unfinished.isEmpty, "the store was never asked")
        #expect(asked.withLock { $0 } == 0, "the app is asked only about payments that pass")
        await queue.stop()
    }

    @Test func whenIdleWaitsForTheAppsDecisionAndThePurchase() async throws {
        let folder = try QueueFixtures.folder()
        let store = ScriptedStore()
        var configuration = QueueFixtures.configuration(folder)
        configuration.promotedPurchases = { _ in
            // An app that looks at its onboarding state before answering.
            try? await Task.sleep(for: .milliseconds(100))
            return .buyNow
        }
        let queue = try TransactionQueue(policy: try QueueFixtures.example("rocket-racer"), store: store, configuration: configuration)
        try await queue.start()
        await store.send(.promoted(PromotedPurchase(payment: Payment(productID: Self.coins, quantity: 2))))
        await queue.whenIdle()
        #expect(await store.finished == ["t1"])
        #expect(await queue.entitlements().balance("coins") == 1000)
        await queue.stop()
    }
}
