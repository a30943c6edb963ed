import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain

/// One StoreKit 1 life in progress: its model, its devices and their apps, its counters.
final class StoreKit1LifeRun {
    /// One person's device and the app running on it.
    final class Device: @unchecked Sendable {
        // @unchecked: the run drives it from one task; the crash flag and witness checks are behind `lock`.
        let person: LifePerson
        let storeKit: ModelStoreKit1Device
        let folder: URL
        var queue: TransactionQueue?
        var backend: StoreKit1Backend?
        private let lock = NSLock()
        private var crashedQueue: TransactionQueue?
        private var checks: [Task<String?, Never>] = []

        init(person: LifePerson, storeKit: ModelStoreKit1Device, folder: URL) {
            self.person = person
            self.storeKit = storeKit
            self.folder = folder
        }

        /// The app crashed as it finished a transaction: its journal is closed at once, as the process's end
        /// closes it, so that nothing the queue does after the finish is kept.
        func crash(_ queue: TransactionQueue) {
            queue.closeJournalAsACrashWould()
            lock.withLock { crashedQueue = queue }
        }

        /// The queue of the launch that crashed, once (nil when none did).
        func takeCrashed() -> TransactionQueue? { lock.withLock { defer { crashedQueue = nil }; return crashedQueue } }

        func check(_ task: Task<String?, Never>) { lock.withLock { checks.append(task) } }
        func takeChecks() -> [Task<String?, Never>] { lock.withLock { defer { checks.removeAll() }; return checks } }
    }

    let driver: StoreKit1LifeDriver
    let seed: UInt64
    let folder: URL
    var life: RandomLife
    var random: SplitMix64
    let clock: ModelClock
    /// The model as the finish witness reads it.
    let modelBox: ModelBox
    var devices: [Device] = []
    var report: DeviceLifeReport
    /// By how much each device's spends exceed the model's, by account and balance: a verdict differs when
    /// the device's balance differs from the model's (a consumable's refund the device cannot see, or its
    /// reversal after the device spent what the refund had taken).
    var spendDifferences: [String: [String: Int]] = [:]
    var notes: [Int: [String]] = [:]
    var step = 0
    /// The queues' events, when the driver traces: noted at the step they happen in.
    let trace = TraceLog()

    init(driver: StoreKit1LifeDriver, seed: UInt64, folder: URL) {
        self.driver = driver
        self.seed = seed
        self.folder = folder
        life = RandomLife(seed: seed, policy: driver.policy, configuration: driver.modelConfiguration, settings: driver.settings)
        // Its own stream, so that the model's life is the one `RandomLife` draws alone.
        random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x534B_315F_4C49_4645))
        clock = ModelClock(life.model.now)
        modelBox = ModelBox(life.model)
        report = DeviceLifeReport(seed: seed)
    }

    // MARK: The life

    func live() async -> DeviceLifeReport {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for person in life.people {
                let deviceFolder = folder.appendingPathComponent(person.appleID, isDirectory: true)
                try FileManager.default.createDirectory(at: deviceFolder, withIntermediateDirectories: true)
                let storeKit = ModelStoreKit1Device(appleID: person.appleID, policy: driver.policy, model: life.model,
                                                    faults: driver.storeKitFaults, seed: seed)
                let device = Device(person: person, storeKit: storeKit, folder: deviceFolder)
                storeKit.setFinishWitness(finishWitness(for: device))
                devices.append(device)
                try await launch(device)
            }
            report.devices = devices.count
            while let moment = try nextMoment() {
                step = moment.step
                trace.step = step
                report.steps += 1
                clock.now = moment.at
                modelBox.value = life.model
                try await perform(moment)
                try await checkViolations()
            }
        } catch let failure as DeviceLifeFailure {
            report.failure = failure
        } catch {
            report.failure = failure("\(error)", account: nil)
        }
        for device in devices {
            let counters = device.storeKit.statistics
            report.deliveries += counters.purchased + counters.restored + counters.redeliveredAtLaunch + counters.afterFinish + counters.duplicates
            report.finishes += counters.finishes
            for (kind, count) in [("duplicate", counters.duplicates), ("reordered", counters.reorders), ("redelivered after finish", counters.afterFinish),
                                  ("crash at finish", counters.crashes), ("restore", counters.restores),
                                  ("family revocation", counters.revocations), ("storefront change", counters.storefrontChanges)] where count > 0 {
                report.faults[kind, default: 0] += count
            }
        }
        return report
    }

    /// Stops every app still running.
    func end() async {
        for device in devices {
            device.backend?.stop()
            await device.queue?.stop()
            if let crashed = device.takeCrashed() { await crashed.stop() }
            device.queue = nil
            device.backend = nil
            device.storeKit.terminate()
            device.storeKit.setFinishWitness(nil)
        }
    }

    private func nextMoment() throws -> LifeMoment? {
        do { return try life.next() } catch { throw failure("the model could not go on: \(error)", account: nil) }
    }

    /// One moment: the purchase, the other transactions (with relaunches), a restore now and then, then the
    /// checkpoint and spend.
    private func perform(_ moment: LifeMoment) async throws {
        var messages = moment.messages
        if case .buy(let purchase)? = moment.action {
            try await buy(purchase, messages: &messages)
        }
        for device in devices {
            let mine = messages.filter { if case .transaction(let sent) = $0 { sent.appleID == device.person.appleID } else { false } }
            try await deliver(mine, to: device)
        }
        for device in devices where random.chance(driver.restoreChance / 2) {
            note("\(device.person.appleID): the App Store storefront changes")
            device.storeKit.changeStorefront()
        }
        for device in devices where random.chance(driver.restoreChance) {
            note("\(device.person.appleID): the user taps Restore Purchases")
            await device.queue?.restoreCompletedTransactions(applicationUsername: nil)
            try await settle(device)
        }
        for event in moment.events {
            switch event {
            case .checkpoint(let expectations): try await checkpoint(expectations)
            case .spend(let spend): try await self.spend(spend)
            case .deliver, .serverDown, .serverUp: break
            }
        }
    }

    // MARK: Purchases

    /// Buys through the purchaser's queue: StoreKit answers with the model's transaction. An offer is not
    /// asked for: StoreKit 1 applies an introductory offer itself to an eligible customer, an offer code is
    /// redeemed in the App Store's sheet, and the catalog declares no promotional or win-back offer (the queue
    /// would refuse one, `undeclaredOffer`); the model's transaction says what was redeemed.
    private func buy(_ purchase: Purchase, messages: inout [StoreMessage]) async throws {
        guard let index = messages.firstIndex(where: {
            if case .transaction(let sent) = $0 {
                sent.appleID == purchase.appleID && sent.payload.productID == purchase.productID && sent.payload.ownership == .purchased
            } else { false }
        }), case .transaction(let transaction) = messages[index] else { return }
        guard let device = devices.first(where: { $0.person.appleID == purchase.appleID }) else {
            throw failure("the model's purchase is by \(purchase.appleID), who has no device in this life", account: purchase.account)
        }
        messages.remove(at: index)
        if random.chance(driver.faults.relaunch) {
            note("\(device.person.appleID): the app relaunches before the purchase")
            try await relaunch(device)
        }
        device.storeKit.answerNextPayment(with: transaction.payload)
        await device.storeKit.observe(life.model, messages: [])
        guard let queue = device.queue else { throw failure("no app runs on \(device.person.appleID)", account: device.person.account) }
        let payment = Payment(productID: purchase.productID, quantity: purchase.quantity,
                              applicationUsername: purchase.setsAppAccountToken ? device.person.account : nil)
        do {
            try await queue.add(payment)
        } catch {
            throw failure("the queue refused the model's purchase of \(purchase.productID): \(error)", account: device.person.account)
        }
        report.purchases += 1
        try await settle(device)
        if random.chance(driver.faults.relaunch) {
            note("\(device.person.appleID): the app relaunches right after the purchase")
            try await relaunch(device)
        }
    }

    // MARK: Deliveries

    /// What Apple sent a device at a step, through its StoreKit 1: while the app is not running now and then
    /// (the next launch gets it), or with a relaunch before, between or after the messages.
    private func deliver(_ messages: [StoreMessage], to device: Device) async throws {
        let name = device.person.appleID
        if !messages.isEmpty, random.chance(driver.faults.deliveredWhileQuit) {
            note("\(name): \(messages.count) messages arrive while the app is not running")
            try await stop(device)
            await device.storeKit.observe(life.model, messages: messages)
            try await launch(device)
            report.relaunches += 1
            return
        }
        let relaunchAt: Int? = random.chance(driver.faults.relaunch) ? random.next(in: 0...messages.count) : nil
        for (position, message) in messages.enumerated() {
            if position == relaunchAt {
                note("\(name): the app relaunches before message \(position + 1) of \(messages.count)")
                try await relaunch(device)
            }
            await device.storeKit.observe(life.model, messages: [message])
            try await settle(device)
        }
        if relaunchAt == messages.count {
            note("\(name): the app relaunches after its messages")
            try await relaunch(device)
        }
        // The model's clock and receipt for a step without messages too.
        await device.storeKit.observe(life.model, messages: [])
        try await settle(device)
    }

    // MARK: Launches

    private func launch(_ device: Device) async throws {
        let paymentQueue = device.storeKit.newLaunch()
        let backend = StoreKit1Backend(policy: driver.policy, paymentQueue: paymentQueue, receipt: device.storeKit.appReceipt)
        let clock = self.clock
        let configuration = QueueConfiguration(
            journalPath: device.folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(50), jitter: 0),
            recordStores: RecordStores(iCloud: FileKeyValueStore(file: device.folder.appendingPathComponent("icloud.json"))),
            now: { clock.now })
        do {
            let queue = try TransactionQueue(policy: driver.policy, store: backend, configuration: configuration)
            device.queue = queue
            device.backend = backend
            // StoreKit calls the observer at once with what it holds unfinished; the backend keeps it until the queue connects.
            await device.storeKit.attach(backend, onCrash: { [weak device, weak queue] in
                guard let device, let queue else { return }
                device.crash(queue)
            })
            try await queue.start(observers: driver.traces ? [QueueTrace(appleID: device.person.appleID, log: trace)] : [])
        } catch {
            throw failure("the queue of \(device.person.appleID) did not start: \(error)", account: device.person.account)
        }
        try await settle(device)
    }

    private func stop(_ device: Device) async throws {
        try await settle(device)
        device.backend?.stop()
        await device.queue?.stop()
        device.queue = nil
        device.backend = nil
        device.storeKit.terminate()
    }

    /// The app quits and launches again: a new queue and backend over the same journal and StoreKit.
    private func relaunch(_ device: Device) async throws {
        try await stop(device)
        try await launch(device)
        report.relaunches += 1
    }

    /// Waits until the device's app has handled everything StoreKit gave it; an app that crashed as it
    /// finished a transaction is launched again.
    private func settle(_ device: Device) async throws {
        while true {
            await device.queue?.whenIdle()
            for check in device.takeChecks() {
                if let problem = await check.value { throw failure(problem, account: device.person.account) }
            }
            guard let crashed = device.takeCrashed() else { return }
            note("\(device.person.appleID): the app crashes as StoreKit finishes a transaction")
            await crashed.stop()
            device.backend?.stop()
            device.queue = nil
            device.backend = nil
            try await launch(device)
            report.relaunches += 1
        }
    }

    // MARK: Checks

    /// Every device's entitlements equal the model's for its account, projected to what StoreKit 1 can tell a
    /// device (``StoreKit1Projection``), once the app refreshed its receipt and read it: StoreKit 1 reports no
    /// refund, reversal or extension as an event, only in the receipt
    /// (https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms).
    private func checkpoint(_ expectations: [LifeExpectation]) async throws {
        report.checkpoints += 1
        for device in devices {
            try await settle(device)
            do {
                try await device.backend?.refreshReceipt()
            } catch {
                throw failure("the receipt refresh failed: \(error)", account: device.person.account)
            }
            await device.queue?.refreshEntitlements()
            try await settle(device)
        }
        try await checkViolations()
        for expectation in expectations {
            guard let device = devices.first(where: { $0.person.account == expectation.account }), let queue = device.queue else {
                throw failure("the model expects entitlements of \(expectation.account), which has no running device", account: expectation.account)
            }
            let projected = StoreKit1Projection.expected(expectation.entitlements, of: expectation.account, in: life.model, policy: driver.policy,
                                                         spendDifference: spendDifferences[expectation.account] ?? [:])
            let expected = ComparedEntitlements(model: projected)
            let actual = ComparedEntitlements(device: await queue.entitlements(), policy: driver.policy)
            guard actual == expected else {
                throw failure("the device's entitlements differ from the model's (StoreKit 1 projection): "
                              + actual.differences(from: expected).joined(separator: "; "),
                              account: expectation.account, expected: expected.description, actual: actual.description)
            }
        }
    }

    /// A spend through the account's device: accepted exactly when the device's own balance (the model's,
    /// projected) covers it; sent twice when the app lost the answer, with the same answer. Where the verdicts
    /// differ, the difference is kept for the next projections.
    private func spend(_ spend: LifeSpend) async throws {
        guard let device = devices.first(where: { $0.person.account == spend.account }), let queue = device.queue else {
            throw failure("a spend by \(spend.account), which has no running device", account: spend.account)
        }
        report.spends += 1
        let difference = spendDifferences[spend.account] ?? [:]
        // The model already recorded an accepted spend: the device's net before it is the projection plus it.
        let before = StoreKit1Projection.deviceNet(life.model.entitlements(of: spend.account), of: spend.account, in: life.model, policy: driver.policy,
                                                   spendDifference: difference)[spend.balance, default: 0]
            + (spend.accepted ? spend.amount : 0)
        let accepts = before >= spend.amount
        note("\(spend.account) spends \(spend.amount) \(spend.balance)\(spend.repeated ? " twice" : ""): the model "
             + (spend.accepted ? "accepts" : "refuses") + "; the device has \(before), so " + (accepts ? "accepts" : "refuses"))
        if accepts != spend.accepted {
            spendDifferences[spend.account, default: [:]][spend.balance, default: 0] += accepts ? spend.amount : -spend.amount
        }
        let left = before - (accepts ? spend.amount : 0)
        for attempt in 1...(spend.repeated ? 2 : 1) {
            do {
                let remaining = try await queue.spend(spend.amount, of: spend.balance, key: spend.key)
                guard accepts else {
                    throw failure("the device spent \(spend.amount) \(spend.balance) (attempt \(attempt)); its balance \(before) does not cover it",
                                  account: spend.account)
                }
                guard remaining == max(0, left) else {
                    throw failure("after spending \(spend.amount) \(spend.balance) (attempt \(attempt)) the device has \(remaining); expected \(left)",
                                  account: spend.account)
                }
            } catch let error as SpendError {
                guard !accepts, case .insufficientBalance = error else {
                    throw failure("the device's spend of \(spend.amount) \(spend.balance) (attempt \(attempt)) failed: \(error); its balance is \(before)",
                                  account: spend.account)
                }
            }
        }
    }

    /// What each device's StoreKit found wrong in how the app used it.
    private func checkViolations() async throws {
        for device in devices {
            if let violation = device.storeKit.violations.first {
                throw failure("StoreKit on \(device.person.appleID): \(violation)", account: device.person.account)
            }
        }
    }

    /// Asked at each finish (StoreKit 1's is synchronous: the check runs beside it and is awaited when the
    /// app settles): the queue's plan for the transaction must not wait at a step before `finish`, and what
    /// it delivers must be in the queue already (a consumable's grants in the journal, a product in force
    /// among the owned ones). The stronger check is the crash at finish (``StoreKit1Faults/crashAtFinish``):
    /// the journal closes as StoreKit finishes, so a plan committed after its finish loses its effects.
    private func finishWitness(for device: Device) -> ModelStoreKit1Device.FinishWitness {
        let clock = clock
        let policy = driver.policy
        let appleID = device.person.appleID
        let model = modelBox
        return { [weak device] modelID, productID, state in
            guard let device, let queue = device.queue, let id = modelID else { return nil }
            let now = clock.now
            let payload = model.value.world.transactions[id]
            // The receipt on the device lists it canceled: the app rightly finishes it as revoked, though the
            // App Store may have reversed the refund since (the device learns that from its next receipt).
            let receipt = device.storeKit.receiptOnDevice().flatMap { try? AppReceiptPayload(receipt: $0) }
            let canceledOnDevice = receipt?.cancellations.contains { $0.transactionID == id } ?? false
            // A subscription's end as the device was told it (the receipt's expires_date): an extension since
            // reaches the device with its next receipt.
            let endOnDevice = receipt?.entry(transactionID: id)?.expirationDate
            device.check(Task {
                if let open = await queue.pending().first(where: { $0.transaction.id == id }), let step = open.step,
                   step != BuiltInStep.finish.rawValue {
                    return "\(appleID) finished \(id) (\(productID)) while its plan waits at '\(step)', before it committed"
                }
                guard let payload, payload.revocationDate == nil, payload.isUpgraded != true, !canceledOnDevice,
                      let handle = policy.product(id: productID) else { return nil }
                let product = policy.product(handle)
                switch product.type {
                case .consumable:
                    guard payload.ownership == .purchased, !product.grants.isEmpty else { return nil }
                    // A journal the app's crash closed cannot be read: the relaunch's checkpoint judges that finish.
                    guard let grants = try? await queue.grantLedger() else { return nil }
                    if !grants.contains(where: { $0.transactionID == id }) {
                        return "\(appleID) finished \(id) (\(productID)) before its grants were in the journal"
                    }
                case .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription:
                    // A restore of a product the receipt records: what it owns is the receipt's entry, which the
                    // queue reads at its next refresh or launch; its plan has nothing to commit first.
                    if state == .restored, product.persistence == .receipt { return nil }
                    let inForce: Bool = switch product.type {
                    case .autoRenewableSubscription: (endOnDevice ?? payload.expiresDate ?? .distantPast) > now
                    case .nonRenewingSubscription:
                        SubscriptionTerm.expiration(of: product, bought: payload.purchaseDate, storeExpiration: nil).map { $0 > now } ?? true
                    default: true
                    }
                    if inForce, !(await queue.entitlements().ownedProducts.contains(product.id)) {
                        return "\(appleID) finished \(id) (\(productID)) before the queue owned the product"
                    }
                }
                return nil
            })
            return nil
        }
    }

    // MARK: Reporting

    private func note(_ line: String) {
        notes[step, default: []].append(line)
    }

    /// The life's story so far: the model's steps, each followed by the device's faults at it.
    var story: [String] {
        let traced = trace.lines
        return life.story.enumerated().flatMap { index, line in
            [line] + (notes[index] ?? []).map { "    [device] " + $0 } + (traced[index] ?? []).map { "    [queue] " + $0 }
        }
    }

    func failure(_ message: String, account: String?, expected: String? = nil, actual: String? = nil) -> DeviceLifeFailure {
        DeviceLifeFailure(seed: seed, step: step, account: account, message: message, expected: expected, actual: actual, story: story,
                          replay: driver.replayCommand(seed: seed))
    }
}

/// The model as the witness reads it (the run updates it at each step).
final class ModelBox: @unchecked Sendable {
    // @unchecked: behind `lock`.
    private let lock = NSLock()
    private var model: StoreModel
    init(_ model: StoreModel) { self.model = model }
    var value: StoreModel {
        get { lock.withLock { model } }
        set { lock.withLock { model = newValue } }
    }
}
