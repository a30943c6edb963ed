import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperServerTestSupport
import StorekeeperStoreModel
import StorekeeperTestChain

/// A life with a device for each person (``LivesOptions/devices``): what Apple sends a device goes to that
/// person's ``LifeDevice`` instead of being posted by the driver, and the device's queue posts it.
///
/// - A `.buy` is made through the buyer's queue (`add(_:)`); StoreKit answers it with the model's transaction
///   (the buyer's own copy among the step's messages). A purchase redeeming a promotional, win-back or
///   offer-code offer reaches the device through `Transaction.updates` instead, as a redemption in the App
///   Store's sheet does: the fixture declares no offers and the lives sign none, so the queue would refuse it.
/// - Every other transaction Apple sends a device (renewals, refunds, upgrades, family-shared copies and their
///   revocations, reversals) reaches it through `Transaction.updates`.
/// - The model's notifications go to the server as the driver sends them without devices, with the same
///   faults (duplicates, delays, lost attempts, reordering, the server down). The driver's own posts of
///   device transactions are not made: the devices post.
/// - StoreKit's own faults (``StoreKitFaults``, drawn from the life's seed): duplicates, unverified then
///   verified, redelivery after finish, reordering, and the app closed and opened again on its journal.
/// - While the server is down a device's requests fail as an unreachable server's do, and its queue waits;
///   when the server is back every queue retries.
/// - At a checkpoint every device first finishes its work (nothing may stay pending), then each account's
///   `GET /v1/entitlements` is compared with the model's on every instance, then the device's `entitlements()`
///   (after `refreshEntitlements()`, which reads the server) with the same expectation.
/// - A spend is made through the spender's queue (`spend(_:of:key:)`, the balance kept on the server) and must
///   be accepted exactly when the model accepts it, and answer the same when repeated.
extension LivesDriver {
    func liveWithDevices(
        _ life: inout RandomLife, instances: [LifeInstance], clock: LifeClock, outcome: inout LifeOutcome, log: inout [String]
    ) async throws {
        try await ScratchFolder.with(prefix: "storekeeper-device-lives") { folder in
            var devices: [String: LifeDevice] = [:]
            var started: [LifeDevice] = []
            do {
                for (index, person) in life.people.enumerated() {
                    let device = try await LifeDevice.start(
                        person: person, instance: index % instances.count, baseURL: instances[index % instances.count].baseURL,
                        folder: folder, world: world, clock: clock)
                    started.append(device)
                    devices[person.appleID] = device
                }
                try await liveOn(&life, devices: devices, instances: instances, clock: clock, outcome: &outcome, log: &log)
            } catch {
                for device in started { await device.stop() }
                throw error
            }
            for device in started { await device.stop() }
        }
    }

    private func point(_ device: LifeDevice, at instances: [LifeInstance]) throws {
        guard let base = instances[device.instance].baseURL else {
            device.transport.goOffline()
            return
        }
        try device.transport.point(to: base)
    }

    private func liveOn(
        _ life: inout RandomLife, devices: [String: LifeDevice], instances: [LifeInstance], clock: LifeClock,
        outcome: inout LifeOutcome, log: inout [String]
    ) async throws {
        let everyDevice = devices.values.sorted { $0.person.account < $1.person.account }
        let faults = StoreKitFaults()
        var random = StoreKitFaults.random(seed: life.seed)
        var down = false
        func exchanges(_ log: inout [String]) {
            for device in everyDevice { log += device.transport.takeExchanges().map { "    " + $0 } }
        }
        while let moment = try life.next() {
            clock.set(moment.at)
            for device in everyDevice { await device.observe(life.model) }
            log.append(moment.happened)
            for device in everyDevice {
                if random.chance(faults.relaunch) {
                    log.append("  the app on the device of \(device.person.appleID) is closed and opened again")
                    try await device.relaunch()
                    outcome.counts.relaunches += 1
                }
                if random.chance(faults.verifyHeld) { await device.verifyHeld() }
            }
            try await handOver(moment, to: devices, faults: faults, random: &random, seed: life.seed, outcome: &outcome, log: &log)
            exchanges(&log)
            for event in moment.events {
                switch event {
                case .serverDown:
                    for instance in instances { await instance.stop() }
                    for device in everyDevice { device.transport.goOffline() }
                    down = true
                    log.append("  the server goes down")
                case .serverUp:
                    for instance in instances { try await instance.start() }
                    for device in everyDevice { try point(device, at: instances) }
                    down = false
                    outcome.counts.restarts += 1
                    log.append("  the server is back")
                    // What waited for the server is sent now (the checkpoint checks that it all was).
                    for device in everyDevice { _ = await device.settle() }
                    exchanges(&log)
                case .deliver(let delivery):
                    if case .transaction = delivery.route {
                        // The device posted it (or will) through its queue.
                        outcome.counts.postedByDevices += 1
                        continue
                    }
                    guard !down else {
                        throw failure("driver", "a delivery while the server is down", step: moment.step, at: moment.at, account: nil,
                                      expected: "nothing sent while down", got: delivery.line, seed: life.seed, log: log)
                    }
                    outcome.counts.deliveries += 1
                    outcome.counts.attempts[delivery.attempt.rawValue, default: 0] += 1
                    try await deliver(delivery, instances: instances, clock: clock, moment: moment, seed: life.seed, log: &log)
                case .checkpoint(let expectations):
                    log.append("  checkpoint")
                    for device in everyDevice {
                        // StoreKit has verified what it could not by now (the model's expectation counts it).
                        await device.verifyHeld()
                        try await settle(device, moment: moment, seed: life.seed, log: &log)
                    }
                    for device in everyDevice {
                        let violations = await device.violations()
                        guard violations.isEmpty else {
                            throw failure("device", "the app used StoreKit wrongly", step: moment.step, at: moment.at,
                                          account: device.person.account, expected: "no violation", got: violations.joined(separator: "; "),
                                          seed: life.seed, log: log)
                        }
                    }
                    exchanges(&log)
                    for expectation in expectations {
                        try await check(expectation, instances: instances, clock: clock, moment: moment, seed: life.seed, log: &log)
                        guard let device = everyDevice.first(where: { $0.person.account == expectation.account }) else { continue }
                        try await check(expectation, on: device, moment: moment, seed: life.seed, outcome: &outcome, log: &log)
                        exchanges(&log)
                    }
                case .spend(let spend):
                    guard let device = everyDevice.first(where: { $0.person.account == spend.account }) else {
                        throw failure("driver", "a spend by an account without a device", step: moment.step, at: moment.at, account: spend.account,
                                      expected: "a device for every account", got: spend.account, seed: life.seed, log: log)
                    }
                    try await self.spend(spend, on: device, moment: moment, seed: life.seed, log: &log)
                    exchanges(&log)
                }
            }
        }
    }

    /// What Apple sent devices at this moment, device by device, with StoreKit's faults: the buyer's purchase
    /// through its queue, the rest as updates.
    private func handOver(
        _ moment: LifeMoment, to devices: [String: LifeDevice], faults: StoreKitFaults, random: inout SplitMix64, seed: UInt64,
        outcome: inout LifeOutcome, log: inout [String]
    ) async throws {
        var purchase: Purchase?
        if case .buy(let bought)? = moment.action, bought.offer.map({ $0.kind == .introductory }) ?? true { purchase = bought }
        var byDevice: [(appleID: String, transactions: [DeviceTransaction])] = []
        for message in moment.messages {
            guard case .transaction(let transaction) = message else { continue }
            if let index = byDevice.firstIndex(where: { $0.appleID == transaction.appleID }) {
                byDevice[index].transactions.append(transaction)
            } else {
                byDevice.append((transaction.appleID, [transaction]))
            }
        }
        for (appleID, transactions) in byDevice {
            guard let device = devices[appleID] else {
                throw failure("driver", "a transaction for an Apple ID without a device", step: moment.step, at: moment.at,
                              account: transactions.first?.account, expected: "a device for every Apple ID", got: appleID, seed: seed, log: log)
            }
            var ordered = transactions
            if ordered.count > 1, random.chance(faults.reorder) {
                ordered.shuffle(using: &random)
                outcome.counts.storeKitFaults += 1
                log.append("  StoreKit reorders what it hands the device of \(appleID)")
            }
            for transaction in ordered {
                let summary = Self.describe(transaction.payload)
                let unverified = random.chance(faults.unverified)
                let note = unverified ? " (unverified until StoreKit can verify it)" : ""
                if unverified { outcome.counts.storeKitFaults += 1 }
                if let bought = purchase, transaction.appleID == bought.appleID, transaction.payload.productID == bought.productID,
                   transaction.payload.ownership == .purchased {
                    purchase = nil
                    outcome.counts.purchasesThroughQueues += 1
                    log.append("  \(appleID) buys \(bought.productID)\(bought.quantity > 1 ? " x\(bought.quantity)" : "") through the app's queue; StoreKit answers \(summary)\(note)")
                    do {
                        try await device.buy(bought, answer: transaction, unverified: unverified)
                    } catch {
                        throw failure("device", "the queue refused a purchase the model made: \(error)", step: moment.step, at: moment.at,
                                      account: bought.account, expected: "the payment added", got: error.description, seed: seed, log: log)
                    }
                } else {
                    outcome.counts.updatesToDevices += 1
                    log.append("  StoreKit updates the device of \(appleID): \(summary)\(note)")
                    await device.receive(transaction, unverified: unverified)
                    if random.chance(faults.duplicate) {
                        outcome.counts.storeKitFaults += 1
                        log.append("  StoreKit updates the device of \(appleID) again: \(summary)")
                        await device.receive(transaction)
                    }
                }
                if random.chance(faults.redeliver) {
                    outcome.counts.storeKitFaults += 1
                    log.append("  StoreKit delivers \(transaction.payload.transactionID) again after it was finished (if it was)")
                    await device.redeliver(transaction.payload.transactionID)
                }
            }
        }
        if let purchase {
            // A purchase of a lower level of the group subscribed to is a downgrade, which the App Store
            // applies at the next renewal: no transaction now, and nothing for the queue to buy.
            log.append("  \(purchase.appleID)'s purchase of \(purchase.productID) makes no transaction now: nothing reaches the device")
        }
    }

    /// The device finishes its work; anything left pending is a failure.
    private func settle(_ device: LifeDevice, moment: LifeMoment, seed: UInt64, log: inout [String]) async throws {
        let pending = await device.settle()
        guard !pending.isEmpty else { return }
        let lines = pending.map { "\($0.transaction.info.id) \($0.transaction.info.productID) at \($0.step ?? "?") (\($0.status)): \($0.lastError ?? "")" }
        throw failure("device", "work left pending at a checkpoint", step: moment.step, at: moment.at, account: device.person.account,
                      expected: "every transaction's plan done", got: lines.joined(separator: "; "), seed: seed, log: log)
    }

    /// Compares a device's entitlements with the model's.
    private func check(
        _ expectation: LifeExpectation, on device: LifeDevice, moment: LifeMoment, seed: UInt64, outcome: inout LifeOutcome, log: inout [String]
    ) async throws {
        let shown = await device.entitlements()
        outcome.counts.deviceChecks += 1
        let differences = DeviceEntitlements.differences(expected: expectation.entitlements, shown: shown, policy: world.policy)
        log.append("    device of \(expectation.account): \(differences.isEmpty ? "agrees" : "DIFFERS in " + differences.joined(separator: ", "))")
        guard differences.isEmpty else {
            throw failure("device", "the device's entitlements differ in \(differences.joined(separator: ", "))", step: moment.step,
                          at: moment.at, account: expectation.account, expected: expectation.entitlements.description,
                          got: DeviceEntitlements.describe(shown, policy: world.policy), seed: seed, log: log)
        }
    }

    /// A spend through the device's queue: accepted exactly when the model accepts it, the same when repeated.
    private func spend(_ spend: LifeSpend, on device: LifeDevice, moment: LifeMoment, seed: UInt64, log: inout [String]) async throws {
        var first: Result<Int, SpendError>?
        for attempt in 0..<(spend.repeated ? 2 : 1) {
            let answer = await device.spend(spend.amount, of: spend.balance, key: spend.key)
            let verdict = spend.accepted ? "accepted" : "refused"
            let shown: String = switch answer {
            case .success(let remaining): "spent, \(remaining) left"
            case .failure(let error): error.description
            }
            log.append("  spend \(spend.amount) \(spend.balance) by \(spend.account) on its device\(attempt > 0 ? " again" : ""): model \(verdict), device \(shown)")
            let agrees: Bool = switch answer {
            case .success(let remaining): spend.accepted && (first.map { $0 == .success(remaining) } ?? true)
            case .failure(.insufficientBalance): !spend.accepted
            case .failure: false
            }
            guard agrees else {
                throw failure("spend", "a spend the model \(verdict) on the device: \(shown)", step: moment.step, at: moment.at,
                              account: spend.account, expected: spend.accepted ? "spent" : "insufficient balance", got: shown, seed: seed, log: log)
            }
            first = first ?? answer
        }
    }

    /// A transaction in a few words, for the story: id, original, product, quantity, ownership, token, expiry, revocation.
    static func describe(_ transaction: TransactionPayload) -> String {
        var words = [transaction.transactionID]
        if transaction.originalTransactionID != transaction.transactionID { words.append("of \(transaction.originalTransactionID)") }
        words.append(transaction.productID)
        if transaction.quantity != 1 { words.append("x\(transaction.quantity)") }
        if transaction.ownership == .familyShared { words.append("family-shared") }
        if transaction.appAccountToken == nil { words.append("no token") }
        if let expires = transaction.expiresDate { words.append("expires \(expires.timeIntervalSince1970)") }
        if transaction.isUpgraded == true { words.append("upgraded") }
        if transaction.revocationDate != nil { words.append("REVOKED" + (transaction.revocationPercentage.map { " \($0)" } ?? "")) }
        return words.joined(separator: " ")
    }
}
