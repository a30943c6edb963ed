import Foundation
import StorekeeperCore
@testable import StorekeeperStoreKit
import Testing

/// The backend's transaction observer is removed from the payment queue when
/// the app says it is done, and when the backend ends. Apple's sample removes
/// it in `applicationWillTerminate(_:)`
/// (https://developer.apple.com/documentation/storekit/setting-up-the-transaction-observer-for-the-payment-queue),
/// with `remove(_:)` (https://developer.apple.com/documentation/storekit/skpaymentqueue/remove(_:)).
@Suite struct StoreKit1ObserverRemovalTests {
    /// Stands for `StoreKit1TransactionObserver`, which exists only where StoreKit does.
    final class Observer {}

    @Test func stopRemovesTheObserverTheBackendAddedOnce() throws {
        let world = try StoreKit1World()
        let observer = Observer()
        world.backend.register(observer: observer)
        #expect(world.fake.calls.withLock { $0.observers } == [ObjectIdentifier(observer)], "added, as at launch")
        world.backend.stop()
        #expect(world.fake.calls.withLock { $0.observers }.isEmpty, "StoreKit no longer calls it")
        world.backend.stop()
        #expect(world.fake.calls.withLock { $0.removedObservers } == [ObjectIdentifier(observer)], "removed once")
    }

    @Test func aBackendThatEndsRemovesItsObserver() throws {
        let fake = FakePaymentQueue()
        let observer = Observer()
        do {
            let backend = StoreKit1Backend(policy: try StoreKit1World.rocketRacer(), paymentQueue: fake, receipt: FakeReceipt())
            backend.register(observer: observer)
            #expect(fake.calls.withLock { $0.observers } == [ObjectIdentifier(observer)])
        }
        // The backend is gone: StoreKit must not keep calling an observer that forwards to nothing.
        #expect(fake.calls.withLock { $0.observers }.isEmpty)
        #expect(fake.calls.withLock { $0.removedObservers } == [ObjectIdentifier(observer)])
    }

    @Test func aStoppedBackendEndsWithoutRemovingAgain() throws {
        let fake = FakePaymentQueue()
        let observer = Observer()
        do {
            let backend = StoreKit1Backend(policy: try StoreKit1World.rocketRacer(), paymentQueue: fake, receipt: FakeReceipt())
            backend.register(observer: observer)
            backend.stop()
        }
        #expect(fake.calls.withLock { $0.removedObservers } == [ObjectIdentifier(observer)])
    }
}
