public import StorekeeperQueue
public import StorekeeperRuntime
import StorekeeperStoreKit
public import StorekeeperStoreModel
import StorekeeperTestChain

/// A device of a life on StoreKit 2: the model-driven ``ModelStoreKit2Device`` and, at each launch, a new
/// `StoreKit2Backend` over it (made after StoreKit's launch, as an app makes it first thing).
public final class StoreKit2LifeDevice: LifeDevice {
    /// The device's StoreKit.
    public let storeKit: ModelStoreKit2Device

    /// The device of `appleID`, selling `policy`'s products.
    public init(appleID: String, policy: CompiledPolicy) {
        storeKit = ModelStoreKit2Device(appleID: appleID, products: policy.products)
    }

    public var appleID: String { storeKit.appleID }
    public var verifies: Bool { true }

    public func launch(account: String) async -> any StoreBackend {
        await storeKit.launch()
        return StoreKit2Backend(store: storeKit, applicationUsername: account)
    }

    public func quit() async { await storeKit.quit() }

    public func expectPurchase(_ transaction: DeviceTransaction, unverified: Bool) async {
        await storeKit.expectPurchase(transaction, unverified: unverified)
    }

    public func receive(_ transaction: DeviceTransaction, unverified: Bool) async {
        await storeKit.receive(transaction, unverified: unverified)
    }

    public func verifyHeld() async { await storeKit.verifyHeld() }

    public func redeliver(transactionID: String) async -> Bool {
        guard await storeKit.isRunning else { return false }
        await storeKit.redeliver(transactionID: transactionID)
        return true
    }

    public func observe(_ model: StoreModel) async { await storeKit.observe(model) }

    public func setFinishWitness(_ witness: (@Sendable (LifeFinish) async -> String?)?) async {
        guard let witness else {
            await storeKit.setFinishWitness(nil)
            return
        }
        await storeKit.setFinishWitness { @Sendable payload in await witness(LifeFinish(payload: payload)) }
    }

    public func settled() async { await storeKit.updatesHandled() }

    public var finishedTransactionIDs: Set<String> { get async { await storeKit.finishedTransactionIDs } }

    public var violations: [String] { get async { await storeKit.violations } }

    public var tally: DeviceTally {
        get async {
            let counters = await storeKit.counters
            return DeviceTally(deliveries: counters.updatesEmitted + counters.purchases, unverified: counters.unverifiedEmitted,
                               finishes: counters.finishes, finishesAgain: counters.finishesAgain)
        }
    }
}
