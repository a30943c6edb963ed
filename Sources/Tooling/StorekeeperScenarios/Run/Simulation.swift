import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperQueue
public import StorekeeperRuntime
public import StorekeeperSimulatedStore

/// Runs a scenario: the catalog's compiled policy, in the real transaction
/// queue (journal, plans, records), against the simulated App Store and the
/// app's simulated server, one action at a time, tracing everything and
/// checking each `expect` (docs/simulate.md).
///
/// ```swift
/// let simulation = Simulation(policy: policy, scenario: scenario, folder: temporaryFolder)
/// let report = await simulation.run()
/// #expect(report.passed)
/// ```
public struct Simulation: Sendable {
    /// The compiled catalog.
    public var policy: CompiledPolicy
    /// The script.
    public var scenario: Scenario
    /// Where each device's journal, user defaults and downloads go, and the
    /// account's iCloud folder (it must exist; the session writes below it).
    public var folder: String
    /// The trace; give one with a listener to see events as they happen.
    public var recorder: TraceRecorder

    /// Prepares a session.
    public init(policy: CompiledPolicy, scenario: Scenario, folder: String, recorder: TraceRecorder = TraceRecorder()) {
        self.policy = policy
        self.scenario = scenario
        self.folder = folder
        self.recorder = recorder
    }

    /// Runs every action and returns the trace and the expectations' outcomes.
    /// A failed expectation does not stop the session; an action that
    /// cannot run does (``SimulationReport/error``).
    public func run() async -> SimulationReport {
        let session = SimulationSession(simulation: self)
        return await session.run()
    }
}

/// One run of a scenario: the store, the server, the running app, the names
/// purchases were given, and what the UI was told since the last `expect`.
final class SimulationSession: Sendable {
    let simulation: Simulation
    let clock: SimulationClock
    let crashSwitch = CrashSwitch()
    let store: SimulatedAppStore
    let server: SimulatedServer
    private let state = Locked(SessionState())

    struct SessionState {
        var device = ""
        var app: TransactionQueue?
        var names: [String: String] = [:]
        var told: [String] = []
        var expectations: [ExpectationResult] = []
    }

    init(simulation: Simulation) {
        self.simulation = simulation
        clock = SimulationClock(start: simulation.scenario.start)
        store = SimulatedAppStore(policy: simulation.policy, seed: simulation.scenario.seed, clock: clock,
                                  downloadBytesPerSecond: simulation.scenario.downloadBytesPerSecond, folder: simulation.folder,
                                  recorder: simulation.recorder, crashSwitch: crashSwitch)
        server = SimulatedServer(user: simulation.scenario.user ?? SimulatedServer.defaultUser, policy: simulation.policy,
                                 now: { [clock] in clock.now })
        state.withLock { $0.device = simulation.scenario.device }
    }

    private var recorder: TraceRecorder { simulation.recorder }
    private var device: String { state.withLock { $0.device } }
    private var app: TransactionQueue? { state.withLock { $0.app } }

    func run() async -> SimulationReport {
        var failure: (SimulationError, SourceLocation)?
        for (index, step) in simulation.scenario.steps.enumerated() {
            recorder.record(.action(index: index + 1, line: step.location.line, text: step.action.summary))
            do {
                try await perform(step.action)
            } catch {
                failure = (error, step.location)
                break
            }
        }
        // Leave the app as a quit would: the journal closed cleanly.
        if let app { await app.stop() }
        let expectations = state.withLock { $0.expectations }
        return SimulationReport(scenario: simulation.scenario, events: recorder.recorded, expectations: expectations,
                                error: failure.map { SimulationReport.Failure(message: $0.0.message, location: $0.1) })
    }

    // MARK: Actions

    private func perform(_ action: ScenarioAction) async throws(SimulationError) {
        switch action {
        case .launch(let name):
            if let name, name != device {
                await quitIfRunning()
                state.withLock { $0.device = name }
            } else if app != nil {
                throw SimulationError("the app is already running on \(device); `relaunch` restarts it, `launch: OTHER` switches devices")
            }
            try await launch()
        case .relaunch:
            await quitIfRunning()
            try await launch()
        case .quit:
            guard app != nil else { throw notRunning("quit") }
            await quitIfRunning()
        case .crash(let point?):
            crashSwitch.arm(point.moment, step: point.step.value)
            recorder.record(.note("crash armed \(point.moment.rawValue) \(point.step.value)"))
        case .crash(nil):
            guard app != nil else { throw notRunning("crash") }
            crashSwitch.crash(at: nil)
            await crashed(at: nil)
        case .buy(let purchase):
            let queue = try running("buy")
            let user = purchase.user ?? simulation.scenario.user
            await store.prepareOutcome(purchase.outcome, device: device)
            let payment = Payment(productID: purchase.product.value, quantity: purchase.quantity.value, applicationUsername: user)
            let refused = Locked<PaymentError?>(nil)
            await onApp { try? await Self.add(payment, to: queue, refused: refused) }
            if let error = refused.withLock({ $0 }) {
                throw SimulationError("the queue refused the payment: \(error)")
            }
            // The app saw `purchasing`; now the store answers.
            if app != nil {
                await onApp { [store, device] in await store.processPayments(device: device) }
            } else {
                // The app died on the way; the store answers all the same (delivered at the next launch).
                await store.processPayments(device: device)
            }
            if let id = await store.latestTransaction(of: purchase.product.value), let name = purchase.name {
                state.withLock { $0.names[name.value] = id }
            }
        case .approve(let reference):
            let id = try await transaction(reference)
            try await storeAction { () throws(SimulationError) in try await store.approve(id) }
        case .decline(let reference):
            let id = try await transaction(reference)
            try await storeAction { () throws(SimulationError) in try await store.decline(id) }
        case .resolve(let reference):
            let id = try await transaction(reference)
            try await storeAction { () throws(SimulationError) in try await store.resolve(id) }
        case .offline:
            await store.setOffline(true, device: device)
            server.setOffline(true)
        case .online:
            await store.setOffline(false, device: device)
            server.setOffline(false)
            if let queue = app { await onApp { await queue.retryNow() } }
        case .retry:
            let queue = try running("retry")
            await onApp { await queue.retryNow() }
        case .restore(let request):
            let queue = try running("restore")
            await store.prepareRestoreSelection(request.selection.map { Set($0.map(\.value)) }, device: device)
            let user = request.user ?? simulation.scenario.user
            await onApp { await queue.restoreCompletedTransactions(applicationUsername: user) }
        case .refreshReceipt:
            await store.refreshReceipt(device)
            if let queue = app { await onApp { await queue.refreshEntitlements() } }
        case .advance(let duration):
            let target = duration.added(to: clock.now)
            await store.advance(to: target)
            if let queue = app { await onApp { await queue.refreshEntitlements() } }
        case .cancelRenewal(let product):
            try await storeAction { () throws(SimulationError) in try await store.cancelRenewal(productID: product.value) }
        case .refund(let reference, let reason):
            let id = try await transaction(reference)
            try await storeAction { () throws(SimulationError) in
                try await store.refund(id, reason: reason == .refund ? .refund : .familySharing)
            }
        case .failDownloads(let fault):
            await store.failNextDownload(fault, device: device)
        case .pauseDownloads:
            await store.pauseDownloads(device: device)
        case .resumeDownloads:
            await store.resumeDownloads(device: device)
            if let queue = app { await onApp { await queue.retryNow() } }
        case .cancelDownloads:
            await store.cancelDownloads(device: device)
            // The waiting step runs once more, sees the cancellation and halts.
            if let queue = app { await onApp { await queue.retryNow() } }
        case .spend(let request):
            try await spend(request)
        case .expect(let expectation):
            try await check(expectation)
        }
    }

    /// The app spends; the UI hears `spent KEY` or `spend refused KEY CODE`.
    private func spend(_ request: SpendRequest) async throws(SimulationError) {
        let queue = try running("spend")
        if let crash = request.crash { crashSwitch.arm(.after, step: "spend \(crash.value.rawValue)") }
        let outcome = Locked<Result<Int, SpendError>?>(nil)
        let (amount, balance, key) = (request.amount.value, request.balance.value, request.key.value)
        await onApp {
            do throws(SpendError) {
                let remaining = try await queue.spend(amount, of: balance, key: key)
                outcome.withLock { $0 = .success(remaining) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        switch outcome.withLock({ $0 }) {
        case .success(let remaining):
            recorder.record(.note("spent \(amount) \(balance) as \(key): \(remaining) left"))
            tell("spent \(key)")
        case .failure(let error):
            recorder.record(.note("spend \(key) refused: \(error)"))
            tell("spend refused \(key) \(Self.code(of: error))")
        case nil:
            // The app died on the way (the crash is traced): it never heard.
            break
        }
    }

    /// Why a spend was refused, as `spend refused KEY CODE` says it.
    private static func code(of error: SpendError) -> String {
        switch error {
        case .insufficientBalance: "insufficient-balance"
        case .keyReused: "spend-key-reused"
        case .unavailable: "unavailable"
        case .refused: "refused"
        case .notConfigured: "not-configured"
        case .journal: "journal-failed"
        case .notStarted, .invalidAmount, .unknownBalance, .invalidKey: "invalid"
        }
    }

    private static func add(_ payment: Payment, to queue: TransactionQueue, refused: Locked<PaymentError?>) async throws {
        do {
            try await queue.add(payment)
        } catch {
            refused.withLock { $0 = error }
        }
    }

    /// A store action, then (when the app runs) what it delivered settles.
    private func storeAction(_ body: () async throws(SimulationError) -> Void) async throws(SimulationError) {
        try await body()
        if app != nil { await onApp {} }
    }

    private func notRunning(_ action: String) -> SimulationError {
        SimulationError("`\(action)` needs the app running on \(device), and it is not: add `launch` (or `relaunch`) before it")
    }

    private func running(_ action: String) throws(SimulationError) -> TransactionQueue {
        guard let app else { throw notRunning(action) }
        return app
    }

    /// A purchase's transaction: an `as` name, or a product's latest transaction.
    private func transaction(_ reference: Reference) async throws(SimulationError) -> String {
        if let id = state.withLock({ $0.names[reference.value] }) { return id }
        if let id = await store.latestTransaction(of: reference.value) { return id }
        throw SimulationError("no purchase is named or made of '\(reference.value)' yet (name one with `as:` in its `buy`)")
    }

    // MARK: The app

    private func launch() async throws(SimulationError) {
        let device = device
        let deviceFolder = "\(simulation.folder)/\(device)"
        do {
            try FileManager.default.createDirectory(atPath: deviceFolder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(simulation.folder)/icloud", withIntermediateDirectories: true)
        } catch {
            throw SimulationError("cannot make the device's folder \(deviceFolder): \(error.localizedDescription)")
        }
        let backend = store.device(device)
        // No retry by itself: a waiting step runs at `online`, `retry`, `resume-downloads` or the next launch.
        let never = Duration.seconds(3_153_600_000)
        var configuration = QueueConfiguration(
            journalPath: "\(deviceFolder)/journal.sqlite", durability: .appCrash,
            retry: RetryPolicy(initialDelay: never, multiplier: 1, maximumDelay: never, jitter: 0),
            services: EngineServices(server: server, hostedContent: backend),
            recordStores: RecordStores(userDefaults: FileKeyValueStore(path: "\(deviceFolder)/user-defaults.json"),
                                       iCloud: SyncedKeyValueStore(folderPath: "\(simulation.folder)/icloud", device: device),
                                       server: ServerRecordStore(transport: server)),
            now: { [clock] in clock.now })
        let recorder = recorder
        let crashSwitch = crashSwitch
        configuration.stepProbe = StepProbe(
            willRun: { _, step in await crashSwitch.reach(.before, step: step) },
            didRun: { info, step, failure in
                recorder.record(.step(transactionID: info.id, step: step, failure: failure?.reason,
                                      willRetry: (failure?.isTransient ?? false) && info.state != .failed))
            })
        configuration.spendProbe = { point, _ in
            switch point {
            case .spendJournalled: await crashSwitch.reach(.after, step: "spend journalled")
            case .spendSent: await crashSwitch.reach(.after, step: "spend sent")
            default: break
            }
        }
        let queue: TransactionQueue
        do {
            queue = try TransactionQueue(policy: simulation.policy, store: backend, configuration: configuration)
        } catch {
            throw SimulationError("the journal of \(device) cannot be opened: \(error)")
        }
        crashSwitch.relaunch()
        state.withLock { $0.app = queue }
        recorder.record(.launched(device: device))
        let observer = ClosureObserver { [self] event in self.observe(event) }
        await onApp { try? await queue.start(observers: [observer]) }
    }

    private func quitIfRunning() async {
        guard let queue = app else { return }
        await queue.stop()
        await store.disconnect(device)
        state.withLock { $0.app = nil }
        recorder.record(.quit(device: device))
    }

    /// Runs `body` on the app and waits until everything it caused is
    /// handled, or the app crashed on the way.
    private func onApp(_ body: @escaping @Sendable () async -> Void) async {
        guard let queue = app else { return }
        let crashedAt: String?? = await withCheckedContinuation { (continuation: CheckedContinuation<String??, Never>) in
            let resumed = Locked(false)
            let resume: @Sendable (String??) -> Void = { outcome in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: outcome) }
            }
            crashSwitch.onCrash { point in resume(.some(point)) }
            Task {
                await body()
                await queue.whenIdle()
                resume(nil)
            }
        }
        if let point = crashedAt { await crashed(at: point) }
    }

    private func crashed(at point: String?) async {
        await store.disconnect(device)
        // The crashed app's tasks stay suspended and keep its queue alive: its
        // journal is let go here, as a dead process's is, for the next launch.
        app?.closeJournalAsACrashWould()
        state.withLock { $0.app = nil }
        recorder.record(.crashed(device: device, point: point))
    }

    /// What the queue tells the app: the trace, and the UI's messages for `told`.
    private func observe(_ event: QueueEvent) {
        switch event {
        case .updated(let transaction):
            guard let plan = simulation.policy.plan(for: transaction.info) else {
                recorder.record(.plan(transactionID: transaction.id, situation: Self.situation(transaction.info), steps: [],
                                      rule: "the product is not in the catalog"))
                return
            }
            let rule = plan.rule.flatMap { index in
                index < simulation.policy.rules.count ? simulation.policy.rules[index] : nil
            }.map { "rule \($0.name) at \($0.position)" }
            recorder.record(.plan(transactionID: transaction.id, situation: Self.situation(transaction.info), steps: plan.stepNames, rule: rule))
        case .notify(let info):
            tell("notify \(info.productID) \(info.state.rawValue)")
        case .presentError(let info, let code):
            tell("error \(info.productID) \(code.rawValue)")
        case .restoreFinished:
            tell("restore finished")
        case .restoreFailed(let code):
            tell("restore failed \(code.rawValue)")
        case .revoked(let revocation):
            tell("revoked \(revocation.productID)")
        case .promotedPurchaseRefused(let purchase, let error):
            tell("promoted purchase of \(purchase.payment.productID) refused: \(error)")
        case .ignored(let transaction, let reason):
            recorder.record(.ignored(transactionID: transaction.id, reason: "\(reason)"))
        case .journalFailed(let error):
            recorder.record(.note("the journal failed: \(error)"))
        case .stepFailed, .removed:
            // The probe traced the step; the store traced the finish.
            break
        }
    }

    private func tell(_ message: String) {
        state.withLock { $0.told.append(message) }
        recorder.record(.told(message))
    }

    private static func situation(_ info: TransactionInfo) -> String {
        info.error.map { "\(info.state.rawValue) (\($0.rawValue))" } ?? info.state.rawValue
    }

    // MARK: Expectations

    private func check(_ expectation: Expectation) async throws(SimulationError) {
        let device = device
        let told = state.withLock { state -> [String] in
            defer { state.told.removeAll() }
            return state.told
        }
        var results: [(at: SourceLocation, result: ExpectationResult)] = []
        func result(_ key: String, _ range: SourceRange, _ failure: String?) {
            results.append((range.start, ExpectationResult(location: range.start.description, key: key, passed: failure == nil, reason: failure)))
        }
        let needsApp = expectation.features != nil || expectation.owns != nil || expectation.subscriptions != nil || expectation.balances != nil
            || expectation.overdrawn != nil
        var entitlements: Entitlements?
        if needsApp {
            guard let queue = app else {
                throw SimulationError("`expect` of features, owns, subscriptions, balances or overdrawn reads the running app, and the app is not running on \(device): `launch` it first")
            }
            entitlements = await queue.entitlements()
        }
        if let features = expectation.features, let entitlements {
            result("features", features.range, ExpectationCheck.sets(expected: features.value, found: entitlements.features, noun: "features"))
        }
        if let owns = expectation.owns, let entitlements {
            result("owns", owns.range, ExpectationCheck.sets(expected: owns.value, found: entitlements.ownedProducts, noun: "owned products"))
        }
        if let subscriptions = expectation.subscriptions, let entitlements {
            result("subscriptions", subscriptions.range,
                   ExpectationCheck.sets(expected: subscriptions.value, found: Set(entitlements.activeSubscriptions.map(\.productID)),
                                         noun: "active subscriptions"))
        }
        if let balances = expectation.balances, let entitlements {
            result("balances", balances.range, ExpectationCheck.balances(expected: balances.value, found: entitlements.balances))
        }
        if let overdrawn = expectation.overdrawn, let entitlements {
            result("overdrawn", overdrawn.range, ExpectationCheck.balances(expected: overdrawn.value, found: entitlements.overdrawn))
        }
        if let unfinished = expectation.unfinished {
            let found = await store.unfinished(device: device)
            switch unfinished.value {
            case .count(let count):
                result("unfinished", unfinished.range, found.count == count ? nil
                    : "expected \(count) unfinished transaction\(count == 1 ? "" : "s") on \(device); found \(found.count)\(found.isEmpty ? "" : ": \(await describe(found))")")
            case .purchases(let names):
                var expected = Set<String>()
                for name in names { expected.insert(try await transaction(Located(name, at: unfinished.range))) }
                result("unfinished", unfinished.range, Set(found) == expected ? nil
                    : "expected unfinished \(await describe(expected.sorted())); found \(found.isEmpty ? "none" : await describe(found))")
            }
        }
        if let downloads = expectation.downloads {
            var problems: [String] = []
            for product in downloads.value.keys.sorted() {
                guard let wanted = downloads.value[product] else { continue }
                let record = await store.latestDownload(of: product, device: device)
                let state = record?.state ?? .none
                if state != wanted.state {
                    problems.append("\(product): expected \(wanted.state.rawValue), found \(state.rawValue)\(record.map { " at \($0.percent)%" } ?? "")")
                } else if let storage = wanted.storage, let record, record.storage != storage {
                    problems.append("\(product): expected in \(storage.rawValue), found in \(record.storage.rawValue)")
                }
            }
            result("downloads", downloads.range, problems.isEmpty ? nil : problems.joined(separator: "; "))
        }
        if let receipt = expectation.receipt {
            result("receipt", receipt.range,
                   ExpectationCheck.sets(expected: receipt.value, found: await store.receiptProducts(device: device), noun: "products on the receipt"))
        }
        if let expected = expectation.told {
            result("told", expected.range, ExpectationCheck.told(expected: expected.value, found: told))
        }
        if let requests = expectation.askToBuy {
            var problems: [String] = []
            for name in requests.value.keys.sorted() {
                guard let wanted = requests.value[name] else { continue }
                let id = try await transaction(Located(name, at: requests.range))
                guard let found = await store.askToBuyState(of: id) else {
                    problems.append("\(name): expected \(wanted.rawValue), but \(id) was not bought with Ask to Buy")
                    continue
                }
                if found != wanted { problems.append("\(name): expected \(wanted.rawValue), found \(found.rawValue)") }
            }
            result("ask-to-buy", requests.range, problems.isEmpty ? nil : problems.joined(separator: "; "))
        }
        // Reported in the order the scenario writes its keys.
        let ordered = results.sorted { $0.at < $1.at }.map(\.result)
        for outcome in ordered { recorder.record(.expectation(outcome)) }
        state.withLock { $0.expectations.append(contentsOf: ordered) }
    }

    private func describe(_ ids: [String]) async -> String {
        var parts: [String] = []
        for id in ids { parts.append("\(id) (\(await store.productID(of: id) ?? "?"))") }
        return parts.joined(separator: ", ")
    }
}
