import Foundation

/// The App Store storefront changing under the app.
extension StoreKit1Backend {
    /// `paymentQueueDidChangeStorefront(_:)`: the device's App Store storefront
    /// changed (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuedidchangestorefront(_:)).
    /// Products, their prices and whether they are sold at all depend on the
    /// storefront, which Apple says can change at any time and should be read
    /// just before products are shown
    /// (https://developer.apple.com/documentation/storekit/skstorefront). The
    /// backend keeps no products (each ``products(for:)`` asks the App Store),
    /// so it only tells ``storefrontChanges()`` subscribers, which look their
    /// products up again.
    public func storefrontDidChange() {
        let subscribers = withState { Array($0.storefrontSubscribers.values) }
        for subscriber in subscribers { subscriber.yield(()) }
    }

    /// One element each time StoreKit reports that the storefront changed,
    /// from now on: the app then calls ``products(for:)`` again for what it
    /// shows. The stream ends when the subscriber stops iterating.
    public func storefrontChanges() -> AsyncStream<Void> {
        // Not AsyncStream.makeStream, which needs iOS 17: the build closure runs in init.
        var made: AsyncStream<Void>.Continuation?
        // Only that it changed matters, not how often: one waiting element is enough.
        let stream = AsyncStream<Void>(bufferingPolicy: .bufferingNewest(1)) { made = $0 }
        guard let continuation = made else { return stream }
        let id = UUID()
        withState { $0.storefrontSubscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.withState { _ = $0.storefrontSubscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
