import Foundation
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDeviceLives
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain
import StorekeeperTestSupport
import Testing

/// The model-driven StoreKit 1 under the real StoreKit 1 backend and queue, one Apple ID's device, for the
/// fake's own tests: a model, the device's StoreKit, and the app's launches over one journal.
final class StoreKit1FakeHarness: @unchecked Sendable {
    // @unchecked: the tests drive it from one task at a time.
    static let start = Date(timeIntervalSince1970: 1_768_003_200)
    static let day: TimeInterval = 86_400

    static let policy: Result<CompiledPolicy, any Error> = Result {
        try ScratchFolder.with(prefix: "storekeeper-sk1-fake") { folder in
            let path = folder.appendingPathComponent("catalog.yaml").path
            try DeviceCatalog.yaml().write(toFile: path, atomically: true, encoding: .utf8)
            return try PolicyLoader().load(contentsOf: path)
        }
    }
    static let chain: Result<TestCertificateChain, any Error> = Result { try TestCertificateChain(options: .init(seed: 25)) }

    let policy: CompiledPolicy
    var model: StoreModel
    let folder: URL
    /// Each Apple ID's device and its app.
    var devices: [String: Device] = [:]

    final class Device: @unchecked Sendable {
        let storeKit: ModelStoreKit1Device
        let journalPath: String
        var backend: StoreKit1Backend?
        var queue: TransactionQueue?
        let log = EventLog()

        init(storeKit: ModelStoreKit1Device, journalPath: String) {
            self.storeKit = storeKit
            self.journalPath = journalPath
        }
    }

    /// Every event a queue sends, in order.
    actor EventLog: TransactionObserver {
        private(set) var events: [QueueEvent] = []
        func queue(_ event: QueueEvent) async { events.append(event) }
        var updated: [StoreTransaction] { events.compactMap { if case .updated(let t) = $0 { t } else { nil } } }
        var restoreFinished: Bool { events.contains { if case .restoreFinished = $0 { true } else { false } } }
    }

    init(gracePeriodDays: Int? = nil, people: [String] = ["ann"], faults: StoreKit1Faults = .none) throws {
        policy = try Self.policy.get()
        let configuration = StoreModel.Configuration(
            bundleID: StoreModelCatalog.bundleID, appAppleID: 1_234_567_890, environment: .sandbox, start: Self.start,
            billingGracePeriodDays: gracePeriodDays, signer: SignedDataSigner(chain: try Self.chain.get()))
        model = StoreModel(policy: policy, configuration: configuration)
        folder = try ScratchFolder.create(prefix: "storekeeper-sk1-fake")
        for person in people {
            _ = try model.perform(.signIn(appleID: person, account: person))
            devices[person] = Device(storeKit: ModelStoreKit1Device(appleID: person, policy: policy, model: model, faults: faults, seed: 25),
                                     journalPath: folder.appendingPathComponent("\(person).sqlite").path)
        }
    }

    deinit { ScratchFolder.remove(folder) }

    func device(_ appleID: String) throws -> Device {
        try #require(devices[appleID])
    }

    /// The app of `appleID` launches: a backend over a new launch of its StoreKit, the queue on its journal.
    func launch(_ appleID: String) async throws {
        let device = try device(appleID)
        let paymentQueue = device.storeKit.newLaunch()
        let backend = StoreKit1Backend(policy: policy, paymentQueue: paymentQueue, receipt: device.storeKit.appReceipt)
        let clock = ModelClock(date: model.now)
        clocks[appleID] = clock
        let queue = try TransactionQueue(policy: policy, store: backend, configuration: QueueConfiguration(
            journalPath: device.journalPath, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(40), jitter: 0),
            recordStores: RecordStores(iCloud: FileKeyValueStore(file: folder.appendingPathComponent("\(appleID)-icloud.json"))),
            now: { clock.date }))
        await device.storeKit.attach(backend, onCrash: { queue.closeJournalAsACrashWould() })
        device.backend = backend
        device.queue = queue
        try await queue.start(observers: [device.log])
        await queue.whenIdle()
    }

    var clocks: [String: ModelClock] = [:]

    /// The app of `appleID` quits.
    func quit(_ appleID: String) async throws {
        let device = try device(appleID)
        device.backend?.stop()
        await device.queue?.stop()
        device.storeKit.terminate()
        device.backend = nil
        device.queue = nil
    }

    /// An action of the world; every device is told; a purchase goes through its buyer's queue.
    @discardableResult
    func perform(_ action: StoreAction) async throws -> [StoreMessage] {
        let messages = try model.perform(action)
        if case .buy(let purchase) = action, let device = devices[purchase.appleID] {
            let payload = try #require(messages.compactMap { message -> TransactionPayload? in
                if case .transaction(let sent) = message, sent.appleID == purchase.appleID, sent.payload.productID == purchase.productID {
                    return sent.payload
                }
                return nil
            }.first)
            device.storeKit.answerNextPayment(with: payload)
            try await tell(messages)
            try await device.queue?.add(Payment(productID: purchase.productID, quantity: purchase.quantity))
        } else {
            try await tell(messages)
        }
        try await settle()
        return messages
    }

    /// The clock moves on.
    @discardableResult
    func advance(days: Double) async throws -> [StoreMessage] {
        let messages = try model.advance(to: model.now.addingTimeInterval(days * Self.day))
        try await tell(messages)
        try await settle()
        return messages
    }

    private func tell(_ messages: [StoreMessage]) async throws {
        for (appleID, device) in devices.sorted(by: { $0.key < $1.key }) {
            clocks[appleID]?.date = model.now
            await device.storeKit.observe(model, messages: messages)
        }
    }

    func settle() async throws {
        for (appleID, device) in devices {
            clocks[appleID]?.date = model.now
            await device.queue?.whenIdle()
        }
    }

    /// The entitlements of `appleID`'s app now.
    func entitlements(_ appleID: String) async throws -> Entitlements {
        let device = try device(appleID)
        let queue = try #require(device.queue, "the app of \(appleID) is not running")
        return await queue.entitlements()
    }
}

/// The model's clock, as the queue reads it.
final class ModelClock: @unchecked Sendable {
    // @unchecked: behind `lock`.
    private let lock = NSLock()
    private var value: Date
    init(date: Date) { value = date }
    var date: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
