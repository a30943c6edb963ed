import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime

/// One launch of the app: opens the state folder, starts the queue (which
/// replays what the journal left and connects the store), waits until it is
/// idle, and reports when everything that ended is finished.
struct RunCommand {
    /// The drill's clock: fixed, so that subscriptions' expiry and the
    /// entitlements do not depend on when a launch runs.
    static let now = Date(timeIntervalSince1970: 1_800_000_100)

    /// Exit statuses of `run`.
    enum Status: Int32 {
        case complete = 0
        case failed = 1
        case incomplete = 3
    }

    let options: RunOptions

    /// Runs the launch; prints the report (complete) or what is left (incomplete).
    func execute() async throws -> Status {
        let killSwitch = KillSwitch(options.kill)
        var plugins = PluginRegistry()
        try plugins.register(AuditLogStep(killSwitch: killSwitch))
        let policy = try PolicyLoader(plugins: plugins).load(contentsOf: options.catalog)
        let stream = TransactionStream(policy: policy, seed: options.seed, count: options.transactions)

        let state = options.state
        do {
            try FileManager.default.createDirectory(atPath: "\(state)/icloud", withIntermediateDirectories: true)
        } catch {
            throw DrillError.message("cannot create the state folder \(state): \(error.localizedDescription)")
        }
        let store = try FileBackedStore(folder: "\(state)/store", stream: stream, killSwitch: killSwitch)
        let iCloud = SyncedKeyValueStore(folderPath: "\(state)/icloud", device: "drill")
        let userDefaults = FileKeyValueStore(path: "\(state)/user-defaults.json")
        var configuration = QueueConfiguration(
            journalPath: "\(state)/journal.sqlite", durability: options.durability,
            // Quick retries: a launch should not sit idle; nothing in the drill fails for long.
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(50), jitter: 0),
            services: EngineServices(hostedContent: DrillContentDownloader(killSwitch: killSwitch)),
            recordStores: RecordStores(userDefaults: KillingRecordStore(base: userDefaults, killSwitch: killSwitch),
                                       iCloud: KillingRecordStore(base: iCloud, killSwitch: killSwitch)),
            now: { Self.now })
        if let batchLimit = options.batchLimit { configuration.batchLimit = batchLimit }
        if killSwitch.isArmed {
            configuration.faultInjection = { point in killSwitch.reach(KillPoint(point)) }
        }

        let queue = try TransactionQueue(policy: policy, store: store, configuration: configuration)
        if let hold = options.hold { try await Self.holdJournal(until: hold) }
        try await queue.start()
        await queue.whenIdle()

        let pending = await queue.pending()
        let unfinished = stream.terminalIDs.subtracting(await store.finishedIDs).sorted()
        guard pending.isEmpty, unfinished.isEmpty else {
            let waiting = pending.prefix(5).map { "\($0.transaction.id) at \($0.step ?? "-") (\($0.status)\($0.lastError.map { ": \($0)" } ?? ""))" }
            StandardError.print("storekeeper-queue-drill: incomplete: \(pending.count) pending [\(waiting.joined(separator: "; "))], "
                + "\(unfinished.count) ended but not finished in the store [\(unfinished.prefix(10).joined(separator: ", "))]")
            await queue.stop()
            return .incomplete
        }
        // Everything is delivered: the spends, each re-issued with its key in every launch that gets here.
        let spends = try await DrillSpends(policy: policy, seed: options.seed, count: max(1, options.transactions / 4)).run(on: queue)
        let report = try await DrillReport.make(queue: queue, store: store, iCloud: iCloud, stream: stream, spends: spends)
        await queue.stop()
        FileHandle.standardOutput.write(try report.json())
        FileHandle.standardOutput.write(Data("\n".utf8))
        return .complete
    }

    /// Creates `path`, then waits until someone removes it, the journal open all along.
    private static func holdJournal(until path: String) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw DrillError.message("cannot create the hold file \(path)")
        }
        while FileManager.default.fileExists(atPath: path) { try await Task.sleep(for: .milliseconds(2)) }
    }
}
