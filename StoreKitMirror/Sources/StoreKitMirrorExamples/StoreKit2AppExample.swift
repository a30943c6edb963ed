import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKitOnMirror // An app imports StorekeeperStoreKit.

// docs/storekit-backends.md shows this file from here to its end.

/// The app's shop: one queue over StoreKit 2, made at launch, before any
/// purchase, so that what StoreKit holds unfinished is delivered at once.
final class Shop: Sendable {
    let queue: TransactionQueue
    let backend: StoreKit2Backend
    let user: String?

    /// Opens the journal and starts the queue over StoreKit 2.
    init(policy: CompiledPolicy, journalPath: String, user: String?, show: @escaping @Sendable (String) async -> Void) async throws {
        self.user = user
        // Ask to Buy requests kept beside the journal, so that an approval after a relaunch reaches the user who asked.
        backend = try StoreKit2Backend(store: AppleStoreKit2Store(), applicationUsername: user,
                                       pendingPurchasesFile: URL(fileURLWithPath: journalPath + ".pending-purchases.json"))
        queue = try TransactionQueue(policy: policy, store: backend, configuration: QueueConfiguration(journalPath: journalPath))
        try await queue.start(observers: [ShopObserver(show: show)])
    }

    /// The Buy button: StoreKit shows its sheet; what happens arrives at the observer.
    func buyButtonTapped(productID: String) async -> String? {
        do {
            try await queue.add(Payment(productID: productID, applicationUsername: user))
            return nil
        } catch {
            return error.description
        }
    }

    /// The Restore Purchases button: `AppStore.sync()` (the user may be asked
    /// to sign in), then the current entitlements.
    func restoreButtonTapped() async {
        await queue.restoreCompletedTransactions(applicationUsername: user)
    }

    /// Whether a feature is unlocked now.
    func isUnlocked(_ feature: String) async -> Bool {
        await queue.entitlements().isUnlocked(feature)
    }
}

/// Tells the interface what the queue does.
struct ShopObserver: TransactionObserver {
    let show: @Sendable (String) async -> Void

    func queue(_ event: QueueEvent) async {
        switch event {
        case .notify(let info) where info.state == .deferred:
            // Ask to Buy: the purchase may be approved later (it then arrives
            // as a purchase), or declined (StoreKit 2 then says nothing).
            await show("Waiting for approval to buy \(info.productID).")
        case .notify(let info) where info.state == .purchased || info.state == .restored:
            await show("\(info.productID) is ready.")
        case .presentError(let info, .verificationFailed):
            await show("The App Store could not confirm the purchase of \(info.productID) yet: it is delivered once confirmed.")
        case .presentError(_, let code):
            await show("The purchase did not go through (\(code.rawValue)).")
        case .revoked(let revocation):
            await show("\(revocation.productID) is no longer available (\(revocation.reason.rawValue)).")
        case .restoreFailed(let code):
            await show("Restoring failed (\(code.rawValue)).")
        default:
            break
        }
    }
}
