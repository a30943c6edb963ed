public import Foundation
import StorekeeperCore
import StorekeeperQueue
public import StorekeeperRuntime
public import StorekeeperStoreModel
import StorekeeperTestChain

/// Random lives of devices: for each seed, a ``RandomLife`` of the App Store model, one device per
/// ``LifePerson`` (the real `TransactionQueue` on its own journal, over a backend over a model-driven StoreKit,
/// ``LifeDevice``), with the queue's clock the model's.
///
/// At each moment: a `.buy` is bought through the purchaser's queue (StoreKit answers with the model's
/// transaction); every other transaction Apple sent a device reaches it through its StoreKit, with StoreKit's
/// faults (``DeviceFaults``) drawn from a generator seeded with the life's seed; apps relaunch at random points.
/// At every `.checkpoint` each device's `entitlements()` must equal the model's for its account
/// (``ComparedEntitlements``); each `.spend` goes through the device's queue and must get the model's
/// verdict; no transaction may be finished before its plan committed (asked at every first finish).
public struct DeviceLifeDriver: Sendable {
    /// The compiled catalog the model and the queues share (``DeviceCatalog``, compiled).
    public let policy: CompiledPolicy
    /// The model's configuration (its start and grace period are drawn from each seed).
    public let modelConfiguration: StoreModel.Configuration
    /// The shape of lives (delivery faults off: StoreKit's own are drawn here).
    public let settings: LifeSettings
    /// StoreKit's faults.
    public let faults: DeviceFaults
    /// The backend's name, for the replay command (`storekit2`).
    public let backend: String
    /// Makes one Apple ID's device, in the life of `seed` whose model starts as `model`.
    public let makeDevice: @Sendable (_ appleID: String, _ policy: CompiledPolicy, _ model: StoreModel, _ seed: UInt64) -> any LifeDevice
    /// Whether StoreKit draws its delivery faults itself and counts them (``LifeDevice/faultCounts``, StoreKit 1's
    /// fake): the driver then draws none of its own (another order, duplicates, unverified first, given again after
    /// a finish, an undeclared offer), and notes its relaunches in the story without counting them as faults.
    public var storeKitDrawsFaults = false
    /// The chance that, at a step, a user taps Restore Purchases (and, at half of it, the storefront changes).
    public var restoreChance = 0.0
    /// Mixed with the seed for the driver's stream of faults (its own, so the model's life is the one
    /// `RandomLife` draws alone); each backend has its own, so that their lives stay as they were measured.
    public var faultStream: UInt64 = 0x5354_4f52_454b_4954
    /// Where each life's journals go (a folder per life, removed after it).
    public let scratch: URL
    /// Whether each queue's events go into the life's story (for a replay).
    public var traces = false

    /// A driver.
    public init(policy: CompiledPolicy, modelConfiguration: StoreModel.Configuration, settings: LifeSettings = DeviceLifeDriver.settings,
                faults: DeviceFaults = .standard, backend: String, scratch: URL = FileManager.default.temporaryDirectory,
                makeDevice: @escaping @Sendable (_ appleID: String, _ policy: CompiledPolicy) -> any LifeDevice) {
        self.init(policy: policy, modelConfiguration: modelConfiguration, settings: settings, faults: faults, backend: backend,
                  scratch: scratch, makeDeviceOfLife: { appleID, policy, _, _ in makeDevice(appleID, policy) })
    }

    /// A driver whose devices are made knowing the life (its model's start and seed).
    public init(policy: CompiledPolicy, modelConfiguration: StoreModel.Configuration, settings: LifeSettings = DeviceLifeDriver.settings,
                faults: DeviceFaults = .standard, backend: String, scratch: URL = FileManager.default.temporaryDirectory,
                makeDeviceOfLife: @escaping @Sendable (_ appleID: String, _ policy: CompiledPolicy, _ model: StoreModel, _ seed: UInt64)
                    -> any LifeDevice) {
        self.policy = policy
        self.modelConfiguration = modelConfiguration
        self.settings = settings
        self.faults = faults
        self.backend = backend
        self.scratch = scratch
        makeDevice = makeDeviceOfLife
    }

    /// The model's standard lives without the network's faults (those are the server's; StoreKit's are drawn
    /// by the driver).
    public static var settings: LifeSettings {
        var settings = LifeSettings.standard
        settings.faults = .none
        return settings
    }

    /// The command that replays the life of `seed`.
    public func replayCommand(seed: UInt64) -> String {
        "swift run storekeeper-device-lives --backend \(backend) --replay \(seed)"
    }

    /// Lives the life of `seed` and reports what it did, and its failure if it failed.
    public func live(seed: UInt64) async -> DeviceLifeReport {
        let clock = ContinuousClock()
        let started = clock.now
        let folder = scratch.appendingPathComponent("storekeeper-\(backend)-life-\(seed)-\(UUID().uuidString)", isDirectory: true)
        let run = DeviceLifeRun(driver: self, seed: seed, folder: folder)
        var report = await run.live()
        await run.end()
        try? FileManager.default.removeItem(at: folder)
        report.duration = clock.now - started
        return report
    }
}

/// One life in progress: its model, its devices and their queues, its counters.
final class DeviceLifeRun {
    /// One person's device and the app running on it.
    final class Device {
        let person: LifePerson
        let device: any LifeDevice
        let folder: URL
        /// The app's queue in this launch (nil while it is not running).
        let current = CurrentQueue()
        /// The queue of a launch that crashed as StoreKit finished a transaction, until the driver relaunches.
        let crashed = CurrentQueue()

        init(person: LifePerson, device: any LifeDevice, folder: URL) {
            self.person = person
            self.device = device
            self.folder = folder
        }

        var queue: TransactionQueue? { current.queue }
    }

    let driver: DeviceLifeDriver
    let seed: UInt64
    let folder: URL
    var life: RandomLife
    var random: SplitMix64
    let clock: ModelClock
    var devices: [Device] = []
    var report: DeviceLifeReport
    /// The device's side of the story, by step.
    var notes: [Int: [String]] = [:]
    var step = 0
    /// By how much each device's spends exceed the model's, by account and balance, where the device judges
    /// spends by a balance of its own (``LifeDevice/deviceBalances(_:of:in:spendDifference:)``).
    var spendDifferences: [String: [String: Int]] = [:]

    init(driver: DeviceLifeDriver, seed: UInt64, folder: URL) {
        self.driver = driver
        self.seed = seed
        self.folder = folder
        life = RandomLife(seed: seed, policy: driver.policy, configuration: driver.modelConfiguration, settings: driver.settings)
        // StoreKit's faults come from the life's seed, on a stream of their own so the model's life is the one
        // `RandomLife` draws alone.
        random = SplitMix64(seed: SplitMix64.mix(seed ^ driver.faultStream))
        clock = ModelClock(life.model.now)
        report = DeviceLifeReport(seed: seed)
    }

    // MARK: The life

    func live() async -> DeviceLifeReport {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for person in life.people {
                let deviceFolder = folder.appendingPathComponent(person.appleID, isDirectory: true)
                try FileManager.default.createDirectory(at: deviceFolder, withIntermediateDirectories: true)
                let device = Device(person: person, device: driver.makeDevice(person.appleID, driver.policy, life.model, seed), folder: deviceFolder)
                devices.append(device)
                await device.device.setFinishWitness(finishWitness(for: device))
                await device.device.observe(life.model)
                try await launch(device)
            }
            report.devices = devices.count
            while let moment = try nextMoment() {
                step = moment.step
                trace.step = step
                report.steps += 1
                clock.now = moment.at
                for device in devices { await device.device.observe(life.model) }
                try await perform(moment)
                try await checkViolations()
            }
        } catch let failure as DeviceLifeFailure {
            report.failure = failure
        } catch {
            report.failure = failure("\(error)", account: nil)
        }
        report.story = story
        for (kind, count) in troubles.counts { report.faults["queue: " + kind, default: 0] += count }
        for device in devices {
            let tally = await device.device.tally
            report.deliveries += tally.deliveries
            report.finishes += tally.finishes
            for (kind, count) in await device.device.faultCounts where count > 0 { report.faults[kind, default: 0] += count }
        }
        return report
    }

    /// Stops every app still running.
    func end() async {
        for device in devices {
            await device.queue?.stop()
            await device.crashed.queue?.stop()
            device.current.queue = nil
            device.crashed.queue = nil
            await device.device.quit()
            await device.device.setFinishWitness(nil)
        }
    }

    private func nextMoment() throws -> LifeMoment? {
        do { return try life.next() } catch { throw failure("the model could not go on: \(error)", account: nil) }
    }

    /// One moment: the purchase, the other messages with their faults, relaunches, then the checkpoint and spend.
    private func perform(_ moment: LifeMoment) async throws {
        var messages: [DeviceTransaction] = moment.messages.compactMap { if case .transaction(let transaction) = $0 { transaction } else { nil } }
        if case .buy(let purchase)? = moment.action {
            try await buy(purchase, messages: &messages)
        }
        for device in devices {
            let mine = messages.filter { $0.appleID == device.person.appleID }
            try await deliver(mine, to: device)
        }
        for device in devices where !driver.storeKitDrawsFaults && driver.faults.redeliverAfterFinish > 0
            && random.chance(driver.faults.redeliverAfterFinish) {
            let finished = await device.device.finishedTransactionIDs.sorted()
            guard !finished.isEmpty else { continue }
            let id = finished[random.next(below: finished.count)]
            if await device.device.redeliver(transactionID: id) {
                fault("redelivered after finish", "\(device.person.appleID): \(id) given again after its finish")
                try await settle(device)
            }
        }
        if driver.restoreChance > 0 {
            for device in devices where random.chance(driver.restoreChance / 2) {
                note("\(device.person.appleID): the App Store storefront changes")
                await device.device.changeStorefront()
            }
            for device in devices where random.chance(driver.restoreChance) {
                note("\(device.person.appleID): the user taps Restore Purchases")
                await device.queue?.restoreCompletedTransactions(applicationUsername: nil)
                try await settle(device)
            }
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

    /// Buys through the purchaser's queue: StoreKit answers with the model's transaction (taken out of
    /// `messages`, so that it is not delivered again as an update).
    private func buy(_ purchase: Purchase, messages: inout [DeviceTransaction]) async throws {
        guard let index = messages.firstIndex(where: {
            $0.appleID == purchase.appleID && $0.payload.productID == purchase.productID && $0.payload.ownership == .purchased
        }) else { return }
        guard let device = devices.first(where: { $0.person.appleID == purchase.appleID }) else {
            throw failure("the model's purchase is by \(purchase.appleID), who has no device in this life", account: purchase.account)
        }
        let transaction = messages.remove(at: index)
        let payment = Payment(productID: purchase.productID, quantity: purchase.quantity,
                              applicationUsername: purchase.setsAppAccountToken ? device.person.account : nil)
        // StoreKit 1 is not asked for an offer: it applies an introductory offer itself, an offer code is redeemed
        // in the App Store's sheet; the model's transaction says what was redeemed.
        if let offer = purchase.offer, !driver.storeKitDrawsFaults { try await tryOffer(offer, of: payment, on: device) }
        if random.chance(driver.faults.relaunch) {
            fault("relaunch", "\(device.person.appleID): the app relaunches before the purchase")
            try await relaunch(device)
        }
        let unverified = device.device.verifies && random.chance(driver.faults.unverifiedFirst)
        if unverified { fault("unverified first", "\(device.person.appleID): the purchase of \(purchase.productID) is answered unverified") }
        await device.device.expectPurchase(transaction, unverified: unverified)
        guard let queue = device.queue else { throw failure("no app runs on \(device.person.appleID)", account: device.person.account) }
        do {
            try await queue.add(payment)
        } catch {
            throw failure("the queue refused the model's purchase of \(purchase.productID): \(error)", account: device.person.account)
        }
        report.purchases += 1
        try await settle(device)
        if random.chance(driver.faults.relaunch) {
            fault("relaunch", "\(device.person.appleID): the app relaunches right after the purchase")
            try await relaunch(device)
        }
    }

    /// A purchase that redeems an offer: an introductory offer needs no purchase option (the App Store applies
    /// it to an eligible customer: https://developer.apple.com/documentation/storekit/implementing-introductory-offers-in-your-app);
    /// a promotional, win-back or offer-code offer the catalog does not declare is refused by the queue
    /// (`PaymentError.undeclaredOffer`), nothing reaching StoreKit, so the driver then buys without it and
    /// StoreKit answers with the model's transaction, offer and all (docs/device-lives.md).
    private func tryOffer(_ offer: Offer, of payment: Payment, on device: Device) async throws {
        let kind: OfferKind
        switch offer.kind {
        case .introductory: return
        case .promotional: kind = .promotional
        case .winBack: kind = .winBack
        case .offerCode: kind = .offerCode
        }
        let id = offer.identifier ?? ""
        guard let handle = driver.policy.product(id: payment.productID),
              !driver.policy.product(handle).offers.contains(where: { $0.kind == kind && $0.id == id }) else {
            throw failure("the catalog declares the offer \(id) of \(payment.productID): the driver does not buy declared offers yet",
                          account: device.person.account)
        }
        var offered = payment
        offered.offer = PaymentOffer(kind: kind, id: id)
        guard let queue = device.queue else { return }
        do {
            try await queue.add(offered)
            throw failure("the queue bought \(payment.productID) with the offer \(id), which the catalog does not declare",
                          account: device.person.account)
        } catch let error as PaymentError {
            guard case .undeclaredOffer = error else {
                throw failure("the queue refused the undeclared offer \(id) of \(payment.productID) with \(error), not undeclaredOffer",
                              account: device.person.account)
            }
            fault("undeclared offer refused", "\(device.person.appleID): the queue refuses the offer \(id) the catalog does not declare")
        }
    }

    // MARK: Deliveries

    /// A device's messages of one step, with StoreKit's faults: another order, duplicates, unverified first,
    /// delivered while the app is not running, a relaunch between two of them.
    private func deliver(_ messages: [DeviceTransaction], to device: Device) async throws {
        let name = device.person.appleID
        var list = messages
        if !driver.storeKitDrawsFaults, list.count > 1, random.chance(driver.faults.reorder) {
            for index in stride(from: list.count - 1, to: 0, by: -1) { list.swapAt(index, random.next(below: index + 1)) }
            fault("reordered", "\(name): \(list.count) messages in another order")
        }
        var index = 0
        while !driver.storeKitDrawsFaults, index < list.count {
            if random.chance(driver.faults.duplicate) {
                list.insert(list[index], at: random.next(in: index + 1...list.count))
                fault("duplicate", "\(name): \(list[index].payload.transactionID) given twice")
                index += 1
            }
            index += 1
        }
        if !list.isEmpty, random.chance(driver.faults.deliveredWhileQuit) {
            fault("delivered while quit", "\(name): \(list.count) messages arrive while the app is not running")
            try await stop(device)
            await device.device.receiveWhileQuit(list)
            try await launch(device)
            report.relaunches += 1
            return
        }
        let relaunchAt: Int? = random.chance(driver.faults.relaunch) ? random.next(in: 0...list.count) : nil
        for (position, message) in list.enumerated() {
            if position == relaunchAt {
                fault("relaunch", "\(name): the app relaunches before message \(position + 1) of \(list.count)")
                try await relaunch(device)
            }
            let unverified = device.device.verifies && random.chance(driver.faults.unverifiedFirst)
            if unverified { fault("unverified first", "\(name): \(message.payload.transactionID) given unverified") }
            await device.device.receive(message, unverified: unverified)
            try await settle(device)
        }
        if relaunchAt == list.count {
            fault("relaunch", "\(name): the app relaunches after its messages")
            try await relaunch(device)
        }
        if !driver.storeKitDrawsFaults, random.chance(0.5) { await device.device.verifyHeld() }
        await device.device.stepDelivered()
        try await settle(device)
    }

    // MARK: Launches

    private func launch(_ device: Device) async throws {
        let backend = await device.device.launch(account: device.person.account)
        let clock = self.clock
        let configuration = QueueConfiguration(
            journalPath: device.folder.appendingPathComponent("journal.sqlite").path, durability: .appCrash,
            retry: RetryPolicy(initialDelay: .milliseconds(5), multiplier: 2, maximumDelay: .milliseconds(50), jitter: 0),
            recordStores: RecordStores(iCloud: FileKeyValueStore(file: device.folder.appendingPathComponent("icloud.json"))),
            now: { clock.now })
        let queue: TransactionQueue
        do {
            queue = try TransactionQueue(policy: driver.policy, store: backend, configuration: configuration)
            device.current.queue = queue
            let crashed = device.crashed
            await device.device.started(queue, crash: { [weak queue] in
                guard let queue else { return }
                // The process ends: its journal closes at once, so nothing the queue does after the finish is kept.
                queue.closeJournalAsACrashWould()
                crashed.queue = queue
            })
            // Where StoreKit crashes apps at a finish (StoreKit 1's fake), the journal failures that follow are its.
            let watch: [any TransactionObserver] = driver.storeKitDrawsFaults ? [] : [QueueTrouble(log: troubles)]
            try await queue.start(observers: driver.traces ? watch + [QueueTrace(appleID: device.person.appleID, log: trace)] : watch)
        } catch {
            throw failure("the queue of \(device.person.appleID) did not start: \(error)", account: device.person.account)
        }
        try await settle(device)
    }

    private func stop(_ device: Device) async throws {
        try await settle(device)
        await device.queue?.stop()
        device.current.queue = nil
        await device.device.quit()
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
            if let queue = device.queue {
                await device.device.settled()
                await queue.whenIdle()
                await device.device.settled()
                await queue.whenIdle()
            }
            if let problem = await device.device.takeFinishProblems().first { throw failure(problem, account: device.person.account) }
            guard let crashed = device.crashed.queue else { return }
            device.crashed.queue = nil
            note("\(device.person.appleID): the app crashes as StoreKit finishes a transaction")
            await crashed.stop()
            await device.device.crashed()
            device.current.queue = nil
            try await launch(device)
            report.relaunches += 1
        }
    }

    // MARK: Checks

    /// Every device's entitlements equal the model's for its account, once StoreKit verified what it held
    /// unverified and the app read StoreKit's current entitlements again (`refreshEntitlements()`: how a
    /// grace period, which sends the device no transaction, reaches it).
    private func checkpoint(_ expectations: [LifeExpectation]) async throws {
        report.checkpoints += 1
        for device in devices {
            await device.device.verifyHeld()
            try await settle(device)
            do {
                try await device.device.refreshBeforeCheckpoint()
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
            let expected = ComparedEntitlements(model: device.device.expected(expectation.entitlements, of: expectation.account, in: life.model,
                                                                              spendDifference: spendDifferences[expectation.account] ?? [:]))
            let actual = ComparedEntitlements(device: await queue.entitlements(), policy: driver.policy)
            guard actual == expected else {
                throw failure("the device's entitlements differ from the model's" + (device.device.projection.map { " (\($0))" } ?? "") + ": "
                              + actual.differences(from: expected).joined(separator: "; "),
                              account: expectation.account, expected: expected.description, actual: actual.description)
            }
        }
    }

    /// A spend through the account's device: accepted exactly when the model accepts it, leaving what the
    /// model leaves; sent twice when the app lost the answer, with the same answer. Where the device keeps a
    /// balance of its own (``LifeDevice/deviceBalances(_:of:in:spendDifference:)``: what StoreKit 1 cannot tell
    /// it), the spend is judged by that balance, and where the verdicts differ the difference is kept for the
    /// next expectations.
    private func spend(_ spend: LifeSpend) async throws {
        guard let device = devices.first(where: { $0.person.account == spend.account }), let queue = device.queue else {
            throw failure("a spend by \(spend.account), which has no running device", account: spend.account)
        }
        report.spends += 1
        let modelExpected = life.model.entitlements(of: spend.account)
        let accepts: Bool
        let left: Int
        let judgedBy: String
        if let net = device.device.deviceBalances(modelExpected, of: spend.account, in: life.model,
                                                   spendDifference: spendDifferences[spend.account] ?? [:]) {
            // The model already recorded an accepted spend: the device's net before it is the projection plus it.
            let before = net[spend.balance, default: 0] + (spend.accepted ? spend.amount : 0)
            accepts = before >= spend.amount
            note("\(spend.account) spends \(spend.amount) \(spend.balance)\(spend.repeated ? " twice" : ""): the model "
                 + (spend.accepted ? "accepts" : "refuses") + "; the device has \(before), so " + (accepts ? "accepts" : "refuses"))
            if accepts != spend.accepted {
                spendDifferences[spend.account, default: [:]][spend.balance, default: 0] += accepts ? spend.amount : -spend.amount
            }
            left = max(0, before - (accepts ? spend.amount : 0))
            judgedBy = "the device's balance \(before)"
        } else {
            accepts = spend.accepted
            left = modelExpected.balances[spend.balance] ?? 0
            judgedBy = "the model"
        }
        for attempt in 1...(spend.repeated ? 2 : 1) {
            do {
                let remaining = try await queue.spend(spend.amount, of: spend.balance, key: spend.key)
                guard accepts else {
                    throw failure("the device spent \(spend.amount) \(spend.balance) (attempt \(attempt)); \(judgedBy) refuses it", account: spend.account)
                }
                guard remaining == left else {
                    throw failure("after spending \(spend.amount) \(spend.balance) (attempt \(attempt)) the device has \(remaining); \(judgedBy) leaves \(left)",
                                  account: spend.account)
                }
            } catch let error as SpendError {
                guard !accepts, case .insufficientBalance = error else {
                    throw failure("the device's spend of \(spend.amount) \(spend.balance) (attempt \(attempt)) failed: \(error); \(judgedBy) "
                        + (accepts ? "accepts it" : "refuses it for want of balance"), account: spend.account)
                }
            }
        }
    }

    /// What each device's StoreKit found wrong in how the app used it.
    private func checkViolations() async throws {
        for device in devices {
            if let violation = await device.device.violations.first {
                throw failure("StoreKit on \(device.person.appleID): \(violation)", account: device.person.account)
            }
        }
    }

    /// Asked at a transaction's first finish: the queue's plan for it must have committed up to `finish` (no
    /// open dispatch of it at an earlier step), and what it delivers must be in the queue already (a
    /// consumable's grants in the journal's grant ledger, a product in force among the owned ones), judged by
    /// what the device was told (``LifeFinish``). Where StoreKit's finish is synchronous (StoreKit 1) the
    /// question runs beside it, and the crash at finish is the stronger check: a plan committed after its
    /// finish loses its effects, and the next checkpoint sees it.
    private func finishWitness(for device: Device) -> @Sendable (LifeFinish) async -> String? {
        let current = device.current
        let clock = clock
        let policy = driver.policy
        let appleID = device.person.appleID
        return { finish in
            let id = finish.transactionID
            guard let queue = current.queue else { return "\(appleID) finished \(id) with no app running" }
            if let open = await queue.pending().first(where: { $0.transaction.id == id }), let step = open.step,
               step != BuiltInStep.finish.rawValue {
                return "\(appleID) finished \(id) (\(finish.productID)) while its plan waits at '\(step)', before it committed"
            }
            guard let payload = finish.payload, payload.revocationDate == nil, !finish.revokedOnDevice, payload.isUpgraded != true,
                  let handle = policy.product(id: finish.productID) else { return nil }
            let product = policy.product(handle)
            let now = clock.now
            switch product.type {
            case .consumable:
                guard payload.ownership == .purchased, !product.grants.isEmpty else { return nil }
                // A journal the app's crash closed cannot be read: the relaunch's checkpoint judges that finish.
                guard let grants = try? await queue.grantLedger() else { return nil }
                if !grants.contains(where: { $0.transactionID == id }) {
                    return "\(appleID) finished \(id) (\(finish.productID)) before its grants were in the journal"
                }
            case .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription:
                if finish.restoredFromReceipt { return nil }
                let inForce: Bool = switch product.type {
                case .autoRenewableSubscription: (finish.endOnDevice ?? payload.expiresDate ?? .distantPast) > now
                case .nonRenewingSubscription:
                    SubscriptionTerm.expiration(of: product, bought: payload.purchaseDate, storeExpiration: nil).map { $0 > now } ?? true
                default: true
                }
                if inForce, !(await queue.entitlements().ownedProducts.contains(product.id)) {
                    return "\(appleID) finished \(id) (\(finish.productID)) before the queue owned the product"
                }
            }
            return nil
        }
    }

    // MARK: Reporting

    /// The queues' events, when the driver traces: noted at the step they happen in.
    let trace = TraceLog()
    /// The queues' failures to commit and steps that failed (each may reorder what the queue does; counted).
    let troubles = TroubleCount()

    /// A fault the driver drew: counted (unless StoreKit counts its own: ``DeviceLifeDriver/storeKitDrawsFaults``)
    /// and noted in the story.
    private func fault(_ kind: String, _ note: String) {
        if !driver.storeKitDrawsFaults { report.faults[kind, default: 0] += 1 }
        self.note(note)
    }

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

/// The queue an app runs in its current launch, read by the finish witness while the queue waits for StoreKit.
final class CurrentQueue: Sendable {
    private let value = Locked<TransactionQueue?>(nil)

    var queue: TransactionQueue? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// What the queues told their observers, by step, for a replay's story.
final class TraceLog: Sendable {
    private let state = Locked<(step: Int, lines: [Int: [String]])>((0, [:]))

    var step: Int {
        get { state.withLock { $0.step } }
        set { state.withLock { $0.step = newValue } }
    }

    var lines: [Int: [String]] { state.withLock { $0.lines } }

    func add(_ line: String) { state.withLock { $0.lines[$0.step, default: []].append(line) } }
}

/// Notes each queue event of one device in the life's trace.
struct QueueTrace: TransactionObserver {
    let appleID: String
    let log: TraceLog

    func queue(_ event: QueueEvent) async {
        let text: String = switch event {
        case .updated(let transaction): "updated \(transaction.id) \(transaction.info.productID) \(transaction.info.state)"
            + (transaction.expirationDate.map { " until \($0.formatted(.iso8601))" } ?? "")
        case .removed(let info): "finished \(info.id)"
        case .ignored(let transaction, let reason): "ignored \(transaction.id) \(transaction.info.state): \(reason)"
        case .revoked(let revocation): "revoked \(revocation.transactionIDs) \(revocation.reason) share \(revocation.share)"
        case .stepFailed(let info, let step, let failure, _): "step \(step) of \(info.id) failed: \(failure)"
        case .journalFailed(let error): "journal failed: \(error)"
        case .notify(let info): "notify \(info.id) \(info.state)"
        case .presentError(let info, let code): "present-error \(info.id) \(code)"
        case .restoreFinished: "restore finished"
        case .restoreFailed(let code): "restore failed: \(code)"
        case .promotedPurchaseRefused(let purchase, let error): "promoted \(purchase.payment.productID) refused: \(error)"
        }
        log.add("\(appleID): \(text)")
    }
}

/// How often the queues of a life told of a failure: a journal commit that failed (the queue sends the event again
/// later), a step that failed. None is expected in these lives; a count says one happened, and where to look when a
/// life's outcome depends on timing.
final class TroubleCount: Sendable {
    private let byKind = Locked<[String: Int]>([:])

    var counts: [String: Int] { byKind.withLock { $0 } }

    func add(_ kind: String) { byKind.withLock { $0[kind, default: 0] += 1 } }
}

/// Counts the failures a queue tells its observers of.
struct QueueTrouble: TransactionObserver {
    let log: TroubleCount

    func queue(_ event: QueueEvent) async {
        switch event {
        case .journalFailed: log.add("journal failed")
        case .stepFailed(_, let step, _, _): log.add("step \(step) failed")
        default: break
        }
    }
}
