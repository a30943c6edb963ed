import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// Rocket Racer's store screen: shows what the queue reports.
actor StoreScreen: TransactionObserver {
    private(set) var shown: [String] = []

    func queue(_ event: QueueEvent) async {
        switch event {
        case .notify(let transaction):
            shown.append("\(transaction.productID): \(transaction.state.rawValue)")
        case .presentError(let transaction, let error):
            shown.append("\(transaction.productID) failed: \(error.rawValue)")
        case .stepFailed(let transaction, let step, let failure, let retryAt?):
            shown.append("\(transaction.productID): \(step) will retry at \(retryAt): \(failure.reason)")
        default:
            break
        }
    }
}

/// At launch, before anything else touches the store: open the queue on
/// the game's journal and start it. What a crash left unfinished runs first.
func launchStore(policy: CompiledPolicy, store: any StoreBackend, journal: URL,
                 iCloudFolder: URL, device: String, screen: StoreScreen) async throws -> TransactionQueue {
    let configuration = QueueConfiguration(
        journalPath: journal.path,
        recordStores: RecordStores(iCloud: SyncedKeyValueStore(folder: iCloudFolder, device: device)))
    let queue = try TransactionQueue(policy: policy, store: store, configuration: configuration)
    try await queue.start(observers: [screen])
    return queue
}

/// The garage shows the season's events while the pass is in force, and
/// the coin counter follows the balance: both read the entitlements.
func garageAndCoins(_ entitlements: Entitlements) -> String {
    let events = entitlements.isUnlocked("season-events") ? "season events open" : "season events locked"
    return "\(events), \(entitlements.balance("coins")) coins"
}
