import Foundation
import StorekeeperCore
@testable import StorekeeperStoreKit
import Testing

/// StoreKit calls `paymentQueueDidChangeStorefront(_:)` when the device's App
/// Store storefront changes
/// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuedidchangestorefront(_:)).
/// Products and prices are the storefront's, which "can change at any time":
/// the app reads them again before it shows them
/// (https://developer.apple.com/documentation/storekit/skstorefront).
@Suite struct StoreKit1StorefrontTests {
    /// Whether `changes` yields within a second (false rather than waiting for ever).
    static func hears(_ changes: AsyncStream<Void>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { for await _ in changes { return true }; return false }
            group.addTask { try? await Task.sleep(for: .seconds(1)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func everySubscriberHearsThatTheStorefrontChanged() async throws {
        let world = try StoreKit1World()
        let store = world.backend.storefrontChanges()
        let banner = world.backend.storefrontChanges()
        world.fake.changeStorefront()
        #expect(await Self.hears(store))
        #expect(await Self.hears(banner))
    }

    @Test func theAppLooksItsProductsUpAgainInTheNewStorefront() async throws {
        let requester = FakeProductsRequester(sold: [
            StoreKit1Product(id: StoreKit1World.noAds, localizedTitle: "Remove Ads", localizedDescription: "Race without interruptions",
                             price: 3.99, priceLocale: Locale(identifier: "en_US")),
        ])
        let world = try StoreKit1World(products: requester)
        let changes = world.backend.storefrontChanges()
        _ = try await world.backend.products(for: [StoreKit1World.noAds])
        world.fake.changeStorefront()
        // What an app does with the stream: each change, ask again.
        if await Self.hears(changes) { _ = try await world.backend.products(for: [StoreKit1World.noAds]) }
        #expect(requester.asked.withLock { $0 } == [[StoreKit1World.noAds], [StoreKit1World.noAds]],
                "the App Store is asked again: the backend keeps no products of the old storefront")
    }

    @Test func aSubscriberThatStopsListeningIsForgotten() async throws {
        let world = try StoreKit1World()
        do {
            let changes = world.backend.storefrontChanges()
            world.fake.changeStorefront()
            #expect(await Self.hears(changes))
        }
        // The stream is gone: its termination removed it.
        try await Task.sleep(for: .milliseconds(10))
        #expect(world.backend.withState { $0.storefrontSubscribers.isEmpty })
    }
}
