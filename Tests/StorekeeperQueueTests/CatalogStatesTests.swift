import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperSimulatedStore
import Testing

/// Every product of every catalog in `Catalogs/`, in every situation its
/// transactions can be in (each state, and `failed` with each store error),
/// run through the queue and checked against its compiled plan and its
/// policy: which steps ran and in what order, that `finish` comes last and
/// once (never for `purchasing` or `deferred`), the entitlements, records
/// and content afterwards.
///
/// Catalogs are found by listing `Catalogs/`, products by iterating the
/// compiled policy: a new catalog or product is covered without a change here.
@Suite struct CatalogStatesTests {
    /// Every folder of `Catalogs/` that holds a `catalog.yaml`.
    static let catalogs: [String] = {
        let root = "\(QueueFixtures.packageRoot)/Catalogs"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: "\(root)/\($0)/catalog.yaml") }.sorted()
    }()

    @Test func theCatalogsFolderIsListedAndEverySituationIsCovered() {
        #expect(Set(Self.catalogs).isSuperset(of: QueueFixtures.exampleCatalogs), "listed \(Self.catalogs)")
        #expect(DeliveryHarness.Situation.all.count == SituationSlot.count)
        let slots = Set(DeliveryHarness.Situation.all.map { SituationSlot.slot($0.state, error: $0.error) })
        #expect(slots == Set(0..<SituationSlot.count), "every plan slot is exercised once")
    }

    @Test(arguments: catalogs, DeliveryHarness.Situation.all)
    func everyProductInThisSituationRunsItsPlan(catalog: String, situation: DeliveryHarness.Situation) async throws {
        let trace = DeliveryHarness.Trace()
        let policy = try DeliveryHarness.tracedPolicy(catalog, trace: trace)
        #expect(!policy.products.isEmpty)
        for product in policy.products {
            try await check(product, in: situation, of: policy, catalog: catalog, trace: trace)
        }
    }

    // MARK: One product in one situation

    private func check(_ product: ProductPolicy, in situation: DeliveryHarness.Situation, of policy: CompiledPolicy,
                       catalog: String, trace: DeliveryHarness.Trace) async throws {
        let handle = try #require(policy.product(id: product.id))
        let plan = policy.plan(for: handle, state: situation.state, error: situation.error).stepNames
        let about = Comment(rawValue: "\(catalog): \(product.id) \(situation), plan \(plan)")
        // The server is signed in as the user the transaction names: it refuses another user's records.
        // It has the catalog, so it keeps the balances the catalog keeps there and lists them
        // (without it, it lists none, and those balances are unconfirmed on the device).
        let world = try DeliveryHarness.World(name: "\(catalog)-\(situation.tag)-\(product.id)", trace: trace,
                                              server: ServerContractTestDouble(user: "user-7", policy: policy))
        let queue = try world.queue(policy)
        try await queue.start(observers: [world.log])

        let quantity = product.type == .consumable ? min(3, product.maxQuantity) : 1
        let id = "\(product.id).\(situation.tag)"
        let purchaseDate = world.store.clock
        let receipt = Array("receipt of \(id)".utf8)
        let info = TransactionInfo(id: id, productID: product.id, state: situation.state, error: situation.error,
                                   quantity: quantity, applicationUsername: "user-7", receipt: receipt)
        let transaction = StoreTransaction(info, originalID: situation.state == .restored ? "original-\(id)" : nil,
                                           purchaseDate: purchaseDate)
        await world.store.send(transaction)
        try await DeliveryHarness.settle(queue, world.log) { events in
            plan.contains("finish") ? events.contains(.removed(info)) : events.contains(.updated(transaction))
        }

        // The steps that ran, in order, with the store's finish: the plan, exactly.
        #expect(trace.steps(of: id) == plan, about)
        let events = await world.log.deliveryEvents(of: id)
        #expect(events.first == .updated(transaction), about)
        #expect(events.filter { if case .notify = $0 { true } else { false } } == Array(repeating: .notify(info), count: plan.filter { $0 == "notify" }.count), about)
        let errorsShown = events.compactMap { if case .presentError(_, let code) = $0 { code } else { nil } }
        #expect(errorsShown == (plan.contains("present-error") ? [situation.error ?? .unknown] : []), about)
        #expect(!events.contains { if case .stepFailed = $0 { true } else { false } }, about)
        let pending = await queue.pending()
        #expect(pending.isEmpty, "nothing is left unfinished: \(pending)")

        // `finish`: never while purchasing or deferred; otherwise once, last.
        switch situation.state {
        case .purchasing, .deferred:
            #expect(!plan.contains("finish"), about)
            #expect(await world.store.finishCalls == 0, about)
            #expect(await world.log.removed.isEmpty, about)
        case .purchased, .restored, .failed:
            #expect(plan.last == "finish", about)
            #expect(await world.store.finishCalls == 1, about)
            #expect(await world.store.finished == [id], about)
            #expect(await world.store.unfinished.isEmpty, about)
            #expect(events.last == .removed(info), "finished once, after everything else: \(events)")
        }

        // What the user has: derived from the product's policy and the plan.
        let entitlements = await queue.entitlements()
        let expected = DeliveryHarness.delivered(product, plan: plan, quantity: quantity, bought: purchaseDate)
        #expect(entitlements == expected, about)
        switch situation.state {
        case .purchased:
            // A purchase delivers, whatever the rules: balances for a consumable, ownership otherwise.
            if product.type == .consumable {
                for grant in product.grants {
                    #expect(entitlements.balance(grant.balance) == grant.amount * quantity, about)
                }
                #expect(!entitlements.owns(product.id), about)
            } else {
                #expect(entitlements.owns(product.id), about)
            }
            for feature in product.unlocks { #expect(entitlements.isUnlocked(feature), about) }
            if DeliveryHarness.isSubscription(product) {
                let end = try #require(DeliveryHarness.expiry(of: product, bought: purchaseDate), about)
                #expect(entitlements.activeSubscriptions == [ActiveSubscription(productID: product.id, expirationDate: end)], about)
            } else {
                #expect(entitlements.activeSubscriptions.isEmpty, about)
            }
        case .failed, .purchasing, .deferred:
            #expect(entitlements == Entitlements(), about)
        case .restored:
            break
        }
        // What the records kept elsewhere say agrees with the journal.
        await queue.refreshEntitlements()
        #expect(await queue.entitlements() == expected, "after reading the records kept elsewhere: \(about)")

        // The grants ledger: one row per balance for this transaction, or none.
        let grants = try await queue.grantLedger()
        let expectedGrants = plan.contains("grant") ? product.grants.map { "\(id) \($0.balance) \($0.amount * quantity)" }.sorted() : []
        #expect(grants.map { "\($0.transactionID) \($0.balance) \($0.amount)" }.sorted() == expectedGrants, about)

        // The record, where the product's persistence says, and nowhere else.
        let persisted = plan.contains("persist")
        let expiry = DeliveryHarness.expiry(of: product, bought: purchaseDate)
        func expectedRecord(_ strategy: PersistenceStrategy) -> [StoredRecord] {
            guard persisted, product.persistence == strategy else { return [] }
            let value: PersistenceRecord.Value
            switch strategy {
            case .appState, .server: value = .transaction(id: id, quantity: quantity)
            case .userDefaults, .icloud: value = product.record == .receipt ? .receipt(receipt) : .flag
            case .receipt: return []
            }
            return [StoredRecord(strategy: strategy, productID: product.id, value: value, transactionID: id,
                                 applicationUsername: "user-7", purchaseDate: purchaseDate,
                                 expirationDate: strategy == .appState ? nil : expiry,
                                 // The synced store keeps how many were bought, for another device's balances.
                                 quantity: strategy == .icloud ? quantity : nil)]
        }
        #expect(try await queue.appStateRecords() == expectedRecord(.appState), about)
        #expect(Array(world.server.records.values) == expectedRecord(.server), about)
        #expect(try await world.iCloud.records() == expectedRecord(.icloud), about)
        #expect(try await world.userDefaults.records() == expectedRecord(.userDefaults), about)

        // The receipt is verified with the server exactly when the plan says.
        let verifications = world.server.requests.filter { $0.method == "POST" && $0.path == "/v1/receipts/verify" }
        #expect(verifications.count == (plan.contains("verify-receipt") ? 1 : 0), about)
        if let body = verifications.first?.body {
            #expect(String(decoding: body, as: UTF8.self).contains(Data(receipt).base64EncodedString()), about)
        }

        // Content, where its source puts it.
        let locations = try await queue.contentLocations()
        if plan.contains("download"), let content = product.content {
            let path: String
            switch content.source {
            case .bundle: path = content.path ?? product.id
            case .server: path = "downloads/" + (content.path ?? product.id)
            case .appleHosted: path = DeliveryHarness.HostedContent.path(of: product.id)
            }
            let storage = content.source == .bundle ? nil : content.storage
            #expect(locations == [product.id: ContentLocation(source: content.source, path: path, storage: storage)], about)
        } else {
            #expect(locations.isEmpty, about)
        }

        // Steps a plugin adds keep their own effects, once.
        let custom = try await queue.customEffects()
        #expect(custom.allSatisfy { $0.transactionID == id }, about)
        #expect(Set(custom.map(\.step)).isSubset(of: Set(plan)), about)
        await queue.stop()
    }
}

// MARK: - The harness the delivery tests share

/// Test doubles and helpers for the queue's delivery tests (this file,
/// DeliveryGuaranteesTests, JournalFailureTests), in a namespace of their own.
enum DeliveryHarness {
    /// A transaction situation: a state, and the store's error for `failed`.
    struct Situation: Sendable, Hashable, CustomStringConvertible {
        var state: TransactionState
        var error: StoreErrorCode?

        /// Each state, and `failed` with each store error.
        static let all: [Situation] = [TransactionState.purchasing, .deferred, .purchased, .restored].map { Situation(state: $0) }
            + StoreErrorCode.allCases.map { Situation(state: .failed, error: $0) }

        /// Letters, digits and `-`: for ids and folder names.
        var tag: String { error.map { "\(state.rawValue)-\($0.rawValue)" } ?? state.rawValue }
        var description: String { error.map { "\(state.rawValue) (\($0.rawValue))" } ?? state.rawValue }
    }

    /// Every step that succeeded, per transaction, in order, with the
    /// store's successful finishes as `finish`.
    final class Trace: @unchecked Sendable {
        // @unchecked: `entries` is read and written only under `lock`.
        private let lock = NSLock()
        private var entries: [(transaction: String, step: String)] = []

        func record(_ transaction: String, _ step: String) { lock.withLock { entries.append((transaction, step)) } }
        func steps(of transaction: String) -> [String] {
            lock.withLock { entries.filter { $0.transaction == transaction }.map(\.step) }
        }
        /// Every entry, in order, as `transaction step`.
        var all: [String] { lock.withLock { entries.map { "\($0.transaction) \($0.step)" } } }
    }

    /// A step that runs another and, when it succeeds, notes it in a trace.
    struct TracingStep: StepPlugin {
        let base: any StepPlugin
        let trace: Trace
        var name: String { base.name }
        func run(_ context: StepContext, into effects: inout EffectBuffer) async throws(StepFailure) {
            try await base.run(context, into: &effects)
            trace.record(context.transaction.id, name)
        }
    }

    /// A store that is a `ScriptedStore` whose successful finishes are noted in a trace.
    struct TracingStore: StoreBackend {
        let base: ScriptedStore
        let trace: Trace
        func connect(_ sink: StoreEventSink) async { await base.connect(sink) }
        func add(_ payment: Payment) async { await base.add(payment) }
        func finish(transactionID: String) async throws(StepFailure) {
            try await base.finish(transactionID: transactionID)
            trace.record(transactionID, "finish")
        }
        func restoreCompletedTransactions(applicationUsername: String?) async {
            await base.restoreCompletedTransactions(applicationUsername: applicationUsername)
        }
        func receiptEntries() async -> [ReceiptEntry] { await base.receiptEntries() }
    }

    /// Apple-hosted content, "downloaded" to `hosted/<product>`.
    final class HostedContent: HostedContentDownloader, @unchecked Sendable {
        // @unchecked: `downloads` is read and written only under `lock`.
        private let lock = NSLock()
        private var downloads: [String] = []
        static func path(of productID: String) -> String { "hosted/\(productID)" }
        var downloaded: [String] { lock.withLock { downloads } }
        func download(productID: String, transactionID: String, storage: ContentStorage?) async throws(StepFailure) -> String {
            lock.withLock { downloads.append(productID) }
            return Self.path(of: productID)
        }
    }

    /// The registry `QueueFixtures.plugins()` makes, `changing` applied, then
    /// every step the catalog's plans name wrapped to be traced.
    static func tracedPolicy(_ catalog: String, trace: Trace,
                             changing: (inout PluginRegistry) throws -> Void = { _ in }) throws -> CompiledPolicy {
        var plugins = try QueueFixtures.plugins()
        try changing(&plugins)
        // Compiled once to learn the step names the plans use, then with each traced.
        let names = Set(try QueueFixtures.example(catalog, plugins: plugins).plans.flatMap(\.stepNames))
        for name in names.sorted() {
            guard let step = plugins.step(named: name) else { continue }
            try plugins.register(TracingStep(base: step, trace: trace))
        }
        return try QueueFixtures.example(catalog, plugins: plugins)
    }

    /// One device: a journal in a folder of its own, the record stores (the
    /// server double for `server`, with receipt verification and server
    /// content through the same double), a scripted store, an event log.
    struct World {
        let folder: URL
        let server: ServerContractTestDouble
        let hosted = HostedContent()
        let userDefaults: FileKeyValueStore
        let iCloud: SyncedKeyValueStore
        let store: ScriptedStore
        let backend: TracingStore
        let log = EventLog()
        let configuration: QueueConfiguration

        init(name: String = #function, trace: Trace, store: ScriptedStore = ScriptedStore(), server: ServerContractTestDouble = ServerContractTestDouble(),
             folder: URL? = nil, iCloudFolder: URL? = nil, device: String = "this-device", journal: String = "journal.sqlite",
             retry: RetryPolicy? = nil, now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_100) }) throws {
            let folder = try folder ?? QueueFixtures.folder(name)
            self.folder = folder
            self.server = server
            self.store = store
            backend = TracingStore(base: store, trace: trace)
            userDefaults = FileKeyValueStore(file: folder.appendingPathComponent("user-defaults-\(device).json"))
            iCloud = SyncedKeyValueStore(folder: iCloudFolder ?? folder.appendingPathComponent("icloud", isDirectory: true), device: device)
            var configuration = QueueFixtures.configuration(
                folder, recordStores: RecordStores(userDefaults: userDefaults, iCloud: iCloud, server: ServerRecordStore(transport: server)),
                services: EngineServices(server: server, hostedContent: hosted), now: now)
            configuration.journalPath = folder.appendingPathComponent(journal).path
            if let retry { configuration.retry = retry }
            self.configuration = configuration
        }

        func queue(_ policy: CompiledPolicy) throws -> TransactionQueue {
            try TransactionQueue(policy: policy, store: backend, configuration: configuration)
        }
    }

    /// Waits until the queue is idle and the log's events satisfy `done`
    /// (five seconds at most, then the test fails).
    static func settle(_ queue: TransactionQueue, _ log: EventLog, timeout: Duration = .seconds(5),
                       _ done: @Sendable ([QueueEvent]) -> Bool) async throws {
        try await eventually(timeout: timeout) {
            await queue.whenIdle()
            return done(await log.events)
        }
        await queue.whenIdle()
    }

    /// Polls `condition` until it holds; fails the test if it never does.
    static func eventually(timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
                           _ condition: () async throws -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        if try await condition() { return }
        Issue.record("the condition did not hold within \(timeout)", sourceLocation: sourceLocation)
    }

    static func isSubscription(_ product: ProductPolicy) -> Bool {
        product.type == .autoRenewableSubscription || product.type == .nonRenewingSubscription
    }

    /// When a subscription bought at `date` ends: an auto-renewable one after
    /// its period, a non-renewing one after its duration, by the UTC calendar.
    static func expiry(of product: ProductPolicy, bought date: Date) -> Date? {
        let text: String?
        switch product.type {
        case .autoRenewableSubscription: text = product.subscription?.period.rawValue
        case .nonRenewingSubscription: text = product.duration
        case .consumable, .nonConsumable: text = nil
        }
        guard let text, case .success(let period) = ISOPeriod.parse(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(byAdding: DateComponents(year: period.years, month: period.months, day: period.weeks * 7 + period.days), to: date)
    }

    /// What a plan delivers of a product on this device: the balances of
    /// `grant` (amount × quantity), the features of `unlock` and, for a
    /// product that is kept, its ownership (with its end, for subscriptions).
    static func delivered(_ product: ProductPolicy, plan: [String], quantity: Int, bought date: Date) -> Entitlements {
        let unlocks = plan.contains("unlock")
        let owned = unlocks && product.type != .consumable
        var balances: [String: Int] = [:]
        if plan.contains("grant") { for grant in product.grants { balances[grant.balance, default: 0] += grant.amount * quantity } }
        return Entitlements(
            features: unlocks ? Set(product.unlocks) : [], balances: balances,
            activeSubscriptions: owned && isSubscription(product) ? [ActiveSubscription(productID: product.id, expirationDate: expiry(of: product, bought: date))] : [],
            ownedProducts: owned ? [product.id] : [])
    }
}

extension EventLog {
    /// The events about one transaction, in order.
    func deliveryEvents(of transactionID: String) -> [QueueEvent] {
        events.filter { event in
            switch event {
            case .updated(let transaction), .ignored(let transaction, _): transaction.id == transactionID
            case .notify(let info), .presentError(let info, _), .stepFailed(let info, _, _, _), .removed(let info): info.id == transactionID
            case .revoked(let revocation): revocation.transactionIDs.contains(transactionID)
            case .restoreFinished, .restoreFailed, .journalFailed, .promotedPurchaseRefused: false
            }
        }
    }

    /// The failures of steps of one transaction, in order.
    func deliveryFailures(of transactionID: String) -> [(step: String, failure: StepFailure, retryAt: Date?)] {
        events.compactMap { event in
            guard case .stepFailed(let info, let step, let failure, let retryAt) = event, info.id == transactionID else { return nil }
            return (step, failure, retryAt)
        }
    }
}
