import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreKit
import Testing

/// Product loading: `Product.products(for:)` through the StoreKit 2
/// backend, and the simulated store's answer from the policy.
@Suite struct ProductLookupTests {
    typealias H = StoreKit2Harness

    static func product(_ id: String, _ type: ProductType?) -> FakeProduct {
        FakeProduct(id: id, displayName: "Name of \(id)", description: "About \(id)", price: Decimal(string: "1.99") ?? 0,
                    displayPrice: "1,99 €", currencyCode: "EUR", productType: type)
    }

    @Test func theStoreKit2BackendListsWhatStoreKitSellsAndTheRestAsUnknown() async throws {
        let h = try H()
        await h.fake.setProducts([Self.product(H.noAds, .nonConsumable), Self.product(H.pro, .autoRenewableSubscription),
                                  Self.product("com.example.rocketracer.newkind", nil)])
        let backend = StoreKit2Backend(store: h.fake)
        let lookup = try await backend.products(declaredIn: h.policy)
        #expect(lookup.products.map(\.id) == [H.noAds, H.pro])
        #expect(lookup.product(H.pro) == StoreProduct(id: H.pro, displayName: "Name of \(H.pro)", description: "About \(H.pro)",
                                                      price: Decimal(string: "1.99") ?? 0, displayPrice: "1,99 €", currencyCode: "EUR",
                                                      type: .autoRenewableSubscription))
        #expect(lookup.unknownIDs == h.policy.products.map(\.id).filter { $0 != H.noAds && $0 != H.pro }.sorted())

        let unknownType = try await backend.products(for: ["com.example.rocketracer.newkind"])
        #expect(unknownType.products.isEmpty && unknownType.unknownIDs == ["com.example.rocketracer.newkind"],
                "a product of a type this version does not know is not sold")
    }

    @Test func aStoreKitErrorIsATransientOrPermanentStepFailure() async throws {
        let h = try H()
        let backend = StoreKit2Backend(store: h.fake)
        await h.fake.setProducts([], failure: StoreKit2Failure(.networkError, message: "offline"))
        await #expect(throws: StepFailure.transient("Product.products(for:) failed: network-error: offline")) {
            try await backend.products(for: [H.noAds])
        }
        await h.fake.setProducts([], failure: StoreKit2Failure(.notEntitled, message: "no entitlement"))
        await #expect(throws: StepFailure.permanent("Product.products(for:) failed: not-entitled: no entitlement")) {
            try await backend.products(for: [H.noAds])
        }
    }

    @Test func theSimulatedStoreSellsThePolicysProductsAtTheirTypesPrice() async throws {
        let h = try H()
        let store = SimulatedAppStore(policy: h.policy, seed: 1, clock: SimulationClock(start: H.now))
        let lookup = try await store.products(for: [H.coins, H.noAds, H.pro, H.seasonPass, "com.example.elsewhere"])
        #expect(lookup.products.map(\.price) == [Decimal(string: "0.99"), Decimal(string: "2.99"), Decimal(string: "4.99"), Decimal(string: "9.99")].compactMap { $0 })
        #expect(lookup.products.map(\.displayPrice) == ["$0.99", "$2.99", "$4.99", "$9.99"])
        #expect(lookup.products.map(\.type) == [.consumable, .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription])
        #expect(lookup.products.allSatisfy { $0.currencyCode == "USD" && $0.displayName == $0.id })
        #expect(lookup.unknownIDs == ["com.example.elsewhere"])
        // The same answer through a device, and again.
        #expect(try await store.device("phone").products(for: [H.coins, H.noAds, H.pro, H.seasonPass, "com.example.elsewhere"]) == lookup)
    }

    @Test func aProductMadeUnavailableIsUnknownUntilItIsSoldAgain() async throws {
        let h = try H()
        let store = SimulatedAppStore(policy: h.policy, seed: 1, clock: SimulationClock(start: H.now))
        await store.setUnavailable([H.noAds])
        let lookup = try await store.products(declaredIn: h.policy)
        #expect(lookup.unknownIDs == [H.noAds])
        #expect(lookup.products.count == h.policy.products.count - 1)
        await store.setUnavailable([])
        #expect(try await store.products(for: [H.noAds]).products.map(\.id) == [H.noAds])
    }
}
