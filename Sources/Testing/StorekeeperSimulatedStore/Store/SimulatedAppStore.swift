public import Foundation
import StorekeeperCore
public import StorekeeperQueue
public import StorekeeperRuntime

/// The simulated App Store for one account: its transactions, receipt,
/// subscriptions, refunds and downloads, and the devices the account's user
/// runs the app on. Each device reaches it through a ``SimulatedDevice`` (the
/// queue's `StoreBackend`).
///
/// It behaves as the In-App Purchase guide describes (docs/simulate.md, "The
/// simulated store"), deterministically: identifiers and download progress
/// come from the seed, dates from the ``SimulationClock``.
public actor SimulatedAppStore {
    /// The simulated time.
    public nonisolated let clock: SimulationClock
    /// Where a crash armed at `finish` happens.
    package nonisolated let crashSwitch: CrashSwitch
    let policy: CompiledPolicy
    let recorder: TraceRecorder
    let bytesPerSecond: Int64
    /// Where downloaded content is written (a folder per device); nil writes nothing.
    let folder: String?
    /// How delivered transactions are signed; nil delivers them unsigned.
    var signing: TransactionSigning?

    private var transactions: [String: StoreRecord] = [:]
    private var order: [String] = []
    private var subscriptions: [String: SubscriptionRecord] = [:]
    private var devices: [String: DeviceRecord] = [:]
    private var downloads: [String: DownloadRecord] = [:]
    private var nextNumber: UInt64
    private var random: SplitMix64
    /// Events of the operation under way, sent together when it ends (``flush()``).
    private var outbox: [(device: String, event: StoreEvent)] = []
    /// Products the store does not sell now (SimulatedAppStore+Products.swift).
    var unavailableProducts: Set<String> = []

    /// An account with no purchases.
    ///
    /// - Parameters:
    ///   - policy: the compiled catalog (product types, periods, content sizes).
    ///   - seed: decides transaction identifiers and download progress.
    ///   - clock: the simulated time.
    ///   - downloadBytesPerSecond: the simulated speed of hosted downloads.
    ///   - folder: where to write downloaded content, a folder per device.
    ///   - recorder: the trace.
    ///   - crashSwitch: crashes armed at `finish`.
    ///   - signing: signs purchased, restored and renewed transactions as StoreKit 2 does (nil: unsigned).
    public init(policy: CompiledPolicy, seed: UInt64, clock: SimulationClock, downloadBytesPerSecond: Int64 = 10_000_000,
                folder: String? = nil, recorder: TraceRecorder = TraceRecorder(), crashSwitch: CrashSwitch = CrashSwitch(),
                signing: TransactionSigning? = nil) {
        self.policy = policy
        self.signing = signing
        self.clock = clock
        self.recorder = recorder
        self.crashSwitch = crashSwitch
        bytesPerSecond = max(1, downloadBytesPerSecond)
        self.folder = folder
        random = SplitMix64(seed: seed)
        // Ten-digit-ish identifiers that differ from seed to seed, counted up from there.
        nextNumber = 1_000_000_000 + SplitMix64.mix(seed) % 8_000_000_000
    }

    /// The store as one device sees it: give it to that device's queue.
    public nonisolated func device(_ name: String) -> SimulatedDevice {
        SimulatedDevice(name: name, store: self)
    }

    // MARK: What the queue asks (through SimulatedDevice)

    func connect(_ device: String, sink: StoreEventSink) {
        defer { flush() }
        devices[device, default: DeviceRecord()].sink = sink
        for id in order {
            guard let transaction = transactions[id], transaction.device == device, transaction.isUnfinished else { continue }
            deliver(transaction, note: "redelivered")
        }
        let revocations = devices[device]?.pendingRevocations ?? []
        devices[device]?.pendingRevocations.removeAll()
        for revocation in revocations { outbox.append((device, .revoked(revocation))) }
    }

    /// The app on `device` stopped (quit or crash): nothing reaches it until it connects again.
    public func disconnect(_ device: String) {
        devices[device]?.sink = nil
    }

    func add(_ payment: Payment, device: String) {
        defer { flush() }
        var state = devices[device, default: DeviceRecord()]
        let outcome = state.nextOutcome ?? .succeed
        state.nextOutcome = nil
        var transaction = newTransaction(product: payment.productID, quantity: payment.quantity, user: payment.applicationUsername,
                                         device: device, kind: .purchase)
        transaction.state = .purchasing
        store(transaction)
        // The store answers later (``processPayments(device:)``), as the App Store does after its sheet.
        state.processing.append((transaction.id, state.offline ? .fail(.networkError) : outcome))
        devices[device] = state
        deliver(transaction)
    }

    /// Answers the payments the device sent: purchased, failed, deferred or interrupted, as prepared.
    public func processPayments(device: String) {
        defer { flush() }
        let payments = devices[device]?.processing ?? []
        devices[device]?.processing.removeAll()
        for (id, outcome) in payments {
            guard var transaction = transactions[id], transaction.state == .purchasing else { continue }
            switch outcome {
            case .succeed:
                complete(&transaction)
            case .askToBuy:
                transaction.state = .deferred
                transaction.askedAt = clock.now
                store(transaction)
                deliver(transaction)
            case .interrupted:
                transaction.state = .failed
                transaction.error = .paymentCancelled
                transaction.interruptionPending = true
                store(transaction)
                deliver(transaction, note: "interrupted: the user must act in the App Store")
            case .fail(let code):
                transaction.state = .failed
                transaction.error = code
                store(transaction)
                deliver(transaction)
            }
        }
    }

    func finish(_ id: String, device: String) async throws(StepFailure) {
        await crashSwitch.reach(.before, step: BuiltInStep.finish.rawValue)
        if devices[device]?.offline == true {
            throw .transient("the App Store cannot be reached (offline): finishing \(id) waits for the network")
        }
        guard var transaction = transactions[id], !transaction.finished else { return }
        transaction.finished = true
        store(transaction)
        recorder.record(.finished(transactionID: id))
        await crashSwitch.reach(.after, step: BuiltInStep.finish.rawValue)
    }

    func restore(device: String, user: String?) {
        defer { flush() }
        var state = devices[device, default: DeviceRecord()]
        let selection = state.restoreSelection
        state.restoreSelection = nil
        devices[device] = state
        if state.offline {
            outbox.append((device, .restoreFailed(.networkError)))
            if devices[device]?.sink == nil { recorder.record(.note("restore failed (network-error); the app is not running")) }
            return
        }
        var skipped: [String] = []
        for id in order {
            // Completed: purchased and finished (an unfinished one is still the app's to deliver).
            guard let original = transactions[id], original.kind != .restore, original.state == .purchased, original.finished, !original.revoked,
                  let product = product(original.productID),
                  product.type == .nonConsumable || product.type == .autoRenewableSubscription
            else { continue }
            if let name = original.user, name != user {
                skipped.append(id)
                continue
            }
            if let selection, product.restoreSelection == .user, product.hasDownloadableContent, !selection.contains(product.id) { continue }
            var restored = newTransaction(product: original.productID, quantity: original.quantity, user: original.user, device: device, kind: .restore)
            restored.state = .restored
            restored.originalID = original.originalID ?? original.id
            restored.purchaseDate = original.purchaseDate
            restored.expirationDate = original.expirationDate
            store(restored)
            deliver(restored, note: "restores \(original.id)")
        }
        if !skipped.isEmpty {
            recorder.record(.note("not restored: \(skipped.joined(separator: ", ")) (bought with another applicationUsername)"))
        }
        refreshReceipt(device)
        outbox.append((device, .restoreFinished))
    }

    func receiptEntries(device: String) -> [ReceiptEntry] {
        let known = devices[device]?.receipt ?? []
        return order.compactMap { id in
            guard known.contains(id), let transaction = transactions[id], isOnReceipt(transaction) else { return nil }
            return ReceiptEntry(productID: transaction.productID, transactionID: id, purchaseDate: transaction.purchaseDate,
                                expirationDate: transaction.expirationDate)
        }
    }

    func download(device: String, productID: String, transactionID: String, storage: ContentStorage?) throws(StepFailure) -> String {
        guard let transaction = transactions[transactionID] else {
            throw .permanent("the store has no transaction \(transactionID) to download \(productID) for")
        }
        guard !transaction.finished else {
            throw .permanent("transaction \(transactionID) is finished: its downloads are gone (download before finishing)")
        }
        let total = max(1, product(productID)?.contentSize ?? 10_000_000)
        var record = downloads[transactionID]
            ?? DownloadRecord(productID: productID, transactionID: transactionID, device: device, total: total, storage: storage ?? .cache)
        let deviceState = devices[device] ?? DeviceRecord()
        if record.state == .cancelled {
            // Cancelled by the user: this attempt fails for good; the next one starts over.
            downloads[transactionID] = DownloadRecord(productID: productID, transactionID: transactionID, device: device, total: total,
                                                      storage: storage ?? .cache)
            throw .permanent("the user cancelled the download of \(productID); it starts again at the next launch")
        }
        if deviceState.offline {
            record.state = .failed
            record.reason = "network-error"
            report(record)
            downloads[transactionID] = record
            throw .transient("no network: the download of \(productID) stopped at \(record.percent)%")
        }
        if deviceState.pausedDownloads {
            record.state = .paused
            report(record)
            downloads[transactionID] = record
            throw .transient("downloads are paused: \(productID) waits at \(record.percent)%")
        }
        record.state = .active
        record.reason = nil
        let fault = deviceState.fault
        devices[device]?.fault = nil
        let stop = fault.map { max($0.percent, record.percent) } ?? 100
        report(record)
        while record.percent < stop {
            // Progress arrives in uneven steps, as over a real network; the seed decides them.
            let step = 5 + random.next(below: 16)
            record.percent = min(stop, record.percent + step)
            if record.percent < 100 { report(record) }
        }
        if let fault {
            record.state = .failed
            record.reason = fault.kind.rawValue
            report(record)
            downloads[transactionID] = record
            throw .transient("\(fault.kind == .outOfSpace ? "out of space" : "the network dropped"): the download of \(productID) stopped at \(record.percent)%; it goes on from there when resumed")
        }
        record.state = .finished
        let path = "\(device)/\(record.storage == .documents ? "Documents" : "Library/Caches")/StoreKit/\(productID)"
        record.path = path
        report(record)
        downloads[transactionID] = record
        if let folder { writeContent(at: "\(folder)/\(path)", productID: productID, transactionID: transactionID) }
        return path
    }

    // MARK: What the scenario does

    /// The store's answer to the device's next payment.
    public func prepareOutcome(_ outcome: PurchaseOutcome, device: String) {
        devices[device, default: DeviceRecord()].nextOutcome = outcome
    }

    /// The user's choice in the app's restore screen, for the device's next restore.
    public func prepareRestoreSelection(_ products: Set<String>?, device: String) {
        devices[device, default: DeviceRecord()].restoreSelection = products
    }

    /// The device loses or regains the network.
    public func setOffline(_ offline: Bool, device: String) {
        devices[device, default: DeviceRecord()].offline = offline
    }

    /// Ask to Buy approved: the deferred transaction becomes purchased. After
    /// the request expired (24 hours unanswered) the approval comes too late:
    /// nothing changes, and the trace notes it.
    public func approve(_ id: String) throws(SimulationError) {
        defer { flush() }
        guard var transaction = try deferred(id, action: "approve") else { return }
        complete(&transaction)
    }

    /// Ask to Buy declined: the deferred transaction fails with
    /// `payment-cancelled`. After the request expired nothing changes, and
    /// the trace notes it.
    public func decline(_ id: String) throws(SimulationError) {
        defer { flush() }
        guard var transaction = try deferred(id, action: "decline") else { return }
        transaction.state = .failed
        transaction.error = .paymentCancelled
        store(transaction)
        deliver(transaction)
    }

    /// The user completed the action an interrupted purchase needed: a new, purchased transaction.
    public func resolve(_ id: String) throws(SimulationError) {
        defer { flush() }
        guard var interrupted = transactions[id], interrupted.interruptionPending else {
            throw SimulationError("\(id) is not an interrupted purchase waiting for the user (buy it with `interrupted: true`)")
        }
        interrupted.interruptionPending = false
        store(interrupted)
        var transaction = newTransaction(product: interrupted.productID, quantity: interrupted.quantity, user: interrupted.user,
                                         device: interrupted.device, kind: .purchase)
        complete(&transaction)
    }

    /// Fetches the account's receipt to the device (no transaction is made).
    public func refreshReceipt(_ device: String) {
        let all = order.filter { transactions[$0].map { $0.kind != .restore && $0.state == .purchased } ?? false }
        devices[device, default: DeviceRecord()].receipt.formUnion(all)
        recorder.record(.note("receipt refreshed on \(device): \(receiptEntries(device: device).count) purchases"))
    }

    /// Moves the clock: subscriptions renew (or lapse), unanswered Ask to Buy requests expire.
    public func advance(to date: Date) {
        defer { flush() }
        // Noted first: what the move causes reaches the app only when the move is done.
        recorder.record(.clock(date))
        while true {
            let next = nextEvent(before: date)
            guard let next else { break }
            clock.move(to: next.date)
            switch next.kind {
            case .renewal(let originalID):
                renewOrLapse(originalID)
            case .askExpired(let id):
                guard var transaction = transactions[id] else { continue }
                transaction.expired = true
                store(transaction)
                recorder.record(.note("the Ask to Buy request \(id) (\(transaction.productID)) expired unanswered after 24 hours"))
            }
        }
        clock.move(to: date)
    }

    /// Turns off a subscription's renewal: it lapses at the end of its period.
    public func cancelRenewal(productID: String) throws(SimulationError) {
        let matching = subscriptions.filter { $0.value.productID == productID && !$0.value.ended }
        guard !matching.isEmpty else { throw SimulationError("\(productID) has no active subscription to cancel") }
        for key in matching.keys { subscriptions[key]?.autoRenew = false }
        recorder.record(.note("renewal of \(productID) turned off"))
    }

    /// Refunds or revokes a purchase and everything that refers to it.
    public func refund(_ id: String, reason: StoreRevocation.Reason) throws(SimulationError) {
        defer { flush() }
        guard let target = transactions[id] else { throw SimulationError("the store has no transaction \(id)") }
        let root = target.originalID ?? target.id
        guard let original = transactions[root], !original.revoked else {
            throw SimulationError("\(id) was already refunded or revoked")
        }
        let family = [root] + order.filter { transactions[$0]?.originalID == root }
        for member in family {
            transactions[member]?.revoked = true
            transactions[member]?.revocation = SignedTransactionFacts.Revocation(date: clock.now, reason: reason)
        }
        subscriptions[root]?.ended = true
        subscriptions[root]?.autoRenew = false
        let revocation = StoreRevocation(productID: original.productID, transactionIDs: family, reason: reason, date: clock.now)
        recorder.record(.note("\(reason == .refund ? "refunded" : "revoked (family sharing)") \(original.productID): \(family.joined(separator: ", "))"))
        for name in devices.keys.sorted() {
            if devices[name]?.sink != nil {
                outbox.append((name, .revoked(revocation)))
            } else {
                devices[name]?.pendingRevocations.append(revocation)
            }
        }
    }

    /// Pauses the device's downloads.
    public func pauseDownloads(device: String) {
        devices[device, default: DeviceRecord()].pausedDownloads = true
        for (id, record) in downloads where record.device == device && record.state == .active {
            downloads[id]?.state = .paused
            report(downloads[id] ?? record)
        }
    }

    /// Resumes the device's paused and failed downloads (they go on when their step runs again).
    public func resumeDownloads(device: String) {
        devices[device, default: DeviceRecord()].pausedDownloads = false
    }

    /// Cancels the device's downloads not finished.
    public func cancelDownloads(device: String) {
        for id in downloads.keys.sorted() {
            guard let record = downloads[id], record.device == device, record.state != .finished, record.state != .cancelled else { continue }
            downloads[id]?.state = .cancelled
            report(downloads[id] ?? record)
        }
    }

    /// Arms a failure of the device's next download.
    public func failNextDownload(_ fault: DownloadFault, device: String) {
        devices[device, default: DeviceRecord()].fault = fault
    }

    // MARK: What expectations read

    /// The transactions the store holds unfinished for the device, oldest first.
    public func unfinished(device: String) -> [String] {
        order.filter { transactions[$0].map { $0.device == device && $0.isUnfinished } ?? false }
    }

    /// The latest transaction of a product (any device), if any.
    public func latestTransaction(of productID: String) -> String? {
        order.last { transactions[$0]?.productID == productID }
    }

    /// What became of the Ask to Buy request that made transaction `id`; nil
    /// when it was not bought with Ask to Buy.
    public func askToBuyState(of id: String) -> AskToBuyState? {
        guard let transaction = transactions[id], transaction.askedAt != nil else { return nil }
        if transaction.expired { return .expired }
        switch transaction.state {
        case .deferred: return .waiting
        case .failed: return .declined
        default: return .approved
        }
    }

    /// A transaction's product, if the store has it.
    public func productID(of id: String) -> String? { transactions[id]?.productID }

    /// The latest download of a product on the device.
    public func latestDownload(of productID: String, device: String) -> DownloadRecord? {
        downloads.values.filter { $0.productID == productID && $0.device == device }
            .max { (transactions[$0.transactionID]?.sequence ?? 0) < (transactions[$1.transactionID]?.sequence ?? 0) }
    }

    /// The products the device's receipt lists.
    public func receiptProducts(device: String) -> Set<String> {
        Set(receiptEntries(device: device).map(\.productID))
    }

    // MARK: Inside

    private func product(_ id: String) -> ProductPolicy? {
        policy.product(id: id).map { policy.product($0) }
    }

    private func store(_ transaction: StoreRecord) {
        if transactions[transaction.id] == nil { order.append(transaction.id) }
        transactions[transaction.id] = transaction
    }

    private func newTransaction(product: String, quantity: Int, user: String?, device: String, kind: StoreRecord.Kind) -> StoreRecord {
        let id = String(nextNumber)
        nextNumber += 1
        return StoreRecord(id: id, sequence: order.count, productID: product, quantity: quantity, user: user, device: device,
                           state: .purchasing, purchaseDate: clock.now, kind: kind)
    }

    /// A payment goes through: charged unless the account owns the product already.
    private func complete(_ transaction: inout StoreRecord) {
        let product = product(transaction.productID)
        if product?.type == .nonConsumable, let owner = owningTransaction(transaction.productID, except: transaction.id) {
            // Bought again: not charged, and it refers to the purchase it repeats (a refund of that takes this too).
            transaction.charged = false
            transaction.originalID = owner.originalID ?? owner.id
        }
        transaction.state = .purchased
        transaction.error = nil
        transaction.purchaseDate = clock.now
        if let product, product.type == .autoRenewableSubscription {
            let end = SubscriptionTerm.expiration(of: product, bought: transaction.purchaseDate, storeExpiration: nil)
            transaction.expirationDate = end
            if let end {
                subscriptions[transaction.id] = SubscriptionRecord(productID: product.id, originalID: transaction.id, device: transaction.device,
                                                                   expires: end, autoRenew: true)
            }
        }
        store(transaction)
        devices[transaction.device, default: DeviceRecord()].receipt.insert(transaction.id)
        deliver(transaction, note: transaction.charged ? nil : "not charged: already owned")
    }

    private func owningTransaction(_ productID: String, except id: String) -> StoreRecord? {
        order.lazy.compactMap { self.transactions[$0] }
            .first { $0.id != id && $0.productID == productID && $0.state == .purchased && !$0.revoked }
    }

    /// The request `action` answers; nil (noted in the trace) when it expired,
    /// as a parent may answer too late; an error when it never was a request
    /// or was answered already.
    private func deferred(_ id: String, action: String) throws(SimulationError) -> StoreRecord? {
        guard let transaction = transactions[id] else { throw SimulationError("the store has no transaction \(id) to \(action)") }
        if transaction.expired, let asked = transaction.askedAt {
            let expiry = TraceDate.format(asked.addingTimeInterval(Self.askToBuyLifetime))
            recorder.record(.note("\(action) came too late: the Ask to Buy request \(id) (\(transaction.productID)) expired unanswered at \(expiry) and was deleted; nothing changes"))
            return nil
        }
        guard transaction.state == .deferred else {
            throw SimulationError("\(id) (\(transaction.productID)) is \(transaction.state.rawValue), not waiting for Ask to Buy; only a purchase made with `ask-to-buy: true` can be approved or declined, once")
        }
        return transaction
    }

    /// How long an Ask to Buy request waits for an answer before the store deletes it.
    static let askToBuyLifetime: TimeInterval = 24 * 3_600

    private func isOnReceipt(_ transaction: StoreRecord) -> Bool {
        guard transaction.state == .purchased, transaction.kind != .restore, !transaction.revoked else { return false }
        // Consumables and non-renewing subscriptions leave the receipt once finished.
        if transaction.finished, let type = product(transaction.productID)?.type, type == .consumable || type == .nonRenewingSubscription {
            return false
        }
        return true
    }

    /// Sends a transaction to its device's app, if it runs; else it waits there (unfinished) for the next launch.
    private func deliver(_ transaction: StoreRecord, note: String? = nil) {
        guard devices[transaction.device]?.sink != nil else {
            if transaction.isUnfinished, transaction.state != .purchasing {
                recorder.record(.note("\(transaction.id) \(transaction.productID) \(transaction.state.rawValue): the app is not running on \(transaction.device); delivered at its next launch"))
            }
            return
        }
        let charged: Bool? = transaction.state == .purchased && transaction.kind != .restore ? transaction.charged : nil
        recorder.record(.store(TransactionReport(device: transaction.device, id: transaction.id, productID: transaction.productID,
                                                 state: transaction.state, error: transaction.error, originalID: transaction.originalID,
                                                 charged: charged, note: note)))
        let original = transactions[transaction.originalID ?? transaction.id] ?? transaction
        outbox.append((transaction.device, .updated(storeTransaction(transaction, original: original))))
    }

    /// Sends each device what the operation produced, in one piece per device.
    private func flush() {
        let pending = outbox
        outbox.removeAll()
        var byDevice: [String: [StoreEvent]] = [:]
        var order: [String] = []
        for (device, event) in pending {
            if byDevice[device] == nil { order.append(device) }
            byDevice[device, default: []].append(event)
        }
        for device in order {
            devices[device]?.sink?.send(contentsOf: byDevice[device] ?? [])
        }
    }

    private func report(_ record: DownloadRecord) {
        let left = record.total - record.total * Int64(record.percent) / 100
        let remaining = record.state == .active ? Int((left + bytesPerSecond - 1) / bytesPerSecond) : nil
        recorder.record(.download(DownloadReport(productID: record.productID, transactionID: record.transactionID, state: record.state,
                                                 percent: record.percent, secondsRemaining: remaining, reason: record.reason)))
    }

    private func writeContent(at path: String, productID: String, transactionID: String) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("content of \(productID), downloaded for \(transactionID)\n".utf8).write(to: url, options: .atomic)
        } catch {
            recorder.record(.note("could not write the content of \(productID) to \(path): \(error.localizedDescription)"))
        }
    }

    private enum TimedEventKind {
        case renewal(String)
        case askExpired(String)
    }

    /// The earliest renewal, lapse or request expiry at or before `date`.
    private func nextEvent(before date: Date) -> (date: Date, kind: TimedEventKind)? {
        var best: (date: Date, kind: TimedEventKind)?
        func consider(_ candidate: Date, _ kind: TimedEventKind) {
            guard candidate <= date else { return }
            if best.map({ candidate < $0.date }) ?? true { best = (candidate, kind) }
        }
        for key in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[key], !subscription.ended else { continue }
            consider(subscription.expires, .renewal(key))
        }
        for id in order {
            guard let transaction = transactions[id], transaction.state == .deferred, !transaction.expired,
                  let asked = transaction.askedAt else { continue }
            consider(asked.addingTimeInterval(Self.askToBuyLifetime), .askExpired(id))
        }
        return best
    }

    private func renewOrLapse(_ originalID: String) {
        guard var subscription = subscriptions[originalID], let product = product(subscription.productID) else { return }
        guard subscription.autoRenew else {
            subscription.ended = true
            subscriptions[originalID] = subscription
            recorder.record(.note("\(subscription.productID) lapsed: renewal was off"))
            return
        }
        var renewal = newTransaction(product: subscription.productID, quantity: 1, user: transactions[originalID]?.user,
                                     device: subscription.device, kind: .renewal)
        renewal.state = .purchased
        renewal.originalID = originalID
        renewal.purchaseDate = subscription.expires
        let end = SubscriptionTerm.expiration(of: product, bought: subscription.expires, storeExpiration: nil) ?? subscription.expires
        renewal.expirationDate = end
        subscription.expires = end
        subscriptions[originalID] = subscription
        store(renewal)
        devices[renewal.device, default: DeviceRecord()].receipt.insert(renewal.id)
        deliver(renewal, note: "renews \(originalID)")
    }

}
