import StorekeeperCore

/// StoreKit's own faults in a life with devices, drawn from a generator of the life's seed (so a seed
/// replays them): what StoreKit does to a device, not what the network does to the server's messages.
/// The chances are per transaction handed to a device, except ``relaunch`` (per device and step).
struct StoreKitFaults: Sendable {
    /// The same transaction twice (`Transaction.updates` delivering again).
    var duplicate = 0.1
    /// First unverified (`invalidDeviceVerification`), verified later (at a later step, or the next launch):
    /// a purchase's result included.
    var unverified = 0.05
    /// The transaction delivered again after the app finished it.
    var redeliver = 0.05
    /// A step's transactions for one device in another order.
    var reorder = 0.3
    /// The person closes the app and opens it again (the queue relaunched on its journal).
    var relaunch = 0.04
    /// StoreKit verifies what it could not, at a step.
    var verifyHeld = 0.5

    /// No faults.
    static let none = StoreKitFaults(duplicate: 0, unverified: 0, redeliver: 0, reorder: 0, relaunch: 0, verifyHeld: 1)

    /// The generator of a life's StoreKit faults: apart from the life's own, so that the model's life is
    /// the same with devices as without.
    static func random(seed: UInt64) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.mix(seed ^ 0x5354_4F52_454B_4954))
    }
}
