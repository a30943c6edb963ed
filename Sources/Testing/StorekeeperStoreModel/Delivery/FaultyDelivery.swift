import Foundation
public import StorekeeperCore
import StorekeeperTestChain

/// The messages of a random life on their way, with faults on purpose: duplicated, held back, their first
/// attempt lost and retried later, reordered, device posts after the notifications of the same event, older
/// copies of a transaction posted after newer ones, the server down for a few steps (everything waits), and
/// devices off (they miss what they can miss).
///
/// What is never lost, because then nobody could know whose a purchase is (docs/store-model.md, "Who holds a
/// purchase"): the first transaction of each original transaction without an appAccountToken is posted by
/// the device that received it, late if its device is off. Notifications are never lost either: Apple retries
/// them until they are answered. An off device misses the renewals that happen meanwhile; the other updates of
/// its transactions it posts late, when it is on again (``DeliveryFaults/offDevicesMissUpdates`` makes it miss
/// those too).
///
/// A value: the same messages and the same generator give the same deliveries.
public struct FaultyDelivery: Sendable {
    /// How faulty.
    public let faults: DeliveryFaults

    private struct Pending: Sendable {
        var due: Int
        var delivery: LifeDelivery
    }

    private var pending: [Pending] = []
    /// The step at which the server comes back, while it is down.
    private var downUntil: Int?
    /// The Apple IDs whose device is off.
    private var off: Set<String> = []
    /// Every Apple ID a device message named, in the order first seen.
    private var devices: [String] = []
    /// The original transactions each app account's device has posted (or will).
    private var postedOriginals: [String: Set<String>] = [:]
    /// The versions of each transaction (by id) each app account's device has posted, oldest first.
    private var postedVersions: [String: [DeviceTransaction]] = [:]

    /// Messages a device missed because it was off.
    public private(set) var missed = 0

    /// A delivery with these faults.
    public init(faults: DeliveryFaults) {
        self.faults = faults
    }

    /// How many deliveries wait.
    public var waiting: Int { pending.count }

    /// Whether the server is down now.
    public var serverIsDown: Bool { downUntil != nil }

    /// Takes what the App Store sent at step `step`; answers a line for each message a device missed.
    public mutating func receive(_ messages: [StoreMessage], step: Int, random: inout SplitMix64) -> [String] {
        var notes: [String] = []
        for message in messages {
            switch message {
            case .notification(let notification):
                schedule(
                    route: .notification, body: notification.body, summary: Self.summary(of: notification), step: step,
                    extraDelay: 0, random: &random)
            case .transaction(let device):
                if !devices.contains(device.appleID) { devices.append(device.appleID) }
                let original = device.payload.originalTransactionID
                let known = postedOriginals[device.account, default: []].contains(original)
                let key = device.account + "\u{0}" + device.payload.transactionID
                let mandatory = device.payload.appAccountToken == nil && !known
                // What an off device never sees: a renewal that happened meanwhile, in its plain first version.
                let plainRenewal = device.payload.reason == .renewal && device.payload.revocationDate == nil
                    && device.payload.isUpgraded != true && postedVersions[key] == nil
                let isOff = off.contains(device.appleID)
                if isOff && !mandatory && (plainRenewal || faults.offDevicesMissUpdates) {
                    missed += 1
                    notes.append("device of \(device.appleID) is off: misses \(Self.summary(of: device))")
                    continue
                }
                postedOriginals[device.account, default: []].insert(original)
                var extra = isOff ? random.next(in: 1...max(1, faults.maximumDelay)) : 0
                if random.chance(faults.postAfterNotification) { extra += random.next(in: 1...max(1, faults.maximumDelay)) }
                let body = #"{"signedTransaction":""# + device.signed + #""}"#
                let due = schedule(
                    route: .transaction(account: device.account), body: body, summary: Self.summary(of: device), step: step,
                    extraDelay: extra, random: &random)
                let older = postedVersions[key, default: []].filter { $0.payload.signedDate < device.payload.signedDate }
                if !older.isEmpty, random.chance(faults.staleCopy) {
                    let stale = older[random.next(below: older.count)]
                    pending.append(Pending(
                        due: due + random.next(in: 0...max(1, faults.maximumDelay)),
                        delivery: LifeDelivery(
                            route: .transaction(account: stale.account), body: #"{"signedTransaction":""# + stale.signed + #""}"#,
                            instance: random.next(below: 2), attempt: .staleCopy, summary: Self.summary(of: stale), sentAtStep: step)))
                }
                postedVersions[key, default: []].append(device)
            }
        }
        return notes
    }

    /// What is sent at step `step` (after ``receive(_:step:random:)`` of its messages): the server may go down
    /// or come back, devices may go off or come back, and what is due is sent, sometimes reordered.
    public mutating func due(step: Int, random: inout SplitMix64) -> [LifeEvent] {
        for device in devices where random.chance(faults.deviceOff) {
            if off.contains(device) { off.remove(device) } else { off.insert(device) }
        }
        var events: [LifeEvent] = []
        if let until = downUntil {
            guard step >= until else { return [] }
            downUntil = nil
            events.append(.serverUp)
        } else if random.chance(faults.serverDown) {
            downUntil = step + random.next(in: 1...max(1, faults.maximumDelay))
            return [.serverDown]
        }
        var ready: [LifeDelivery] = []
        pending.removeAll { item in
            guard item.due <= step else { return false }
            ready.append(item.delivery)
            return true
        }
        if random.chance(0.5) { Self.shuffle(&ready, random: &random) }
        return events + ready.map(LifeEvent.deliver)
    }

    /// Everything that waits, in random order, duplicates included; the server comes back first if it was down.
    public mutating func flush(random: inout SplitMix64) -> [LifeEvent] {
        var events: [LifeEvent] = []
        if downUntil != nil {
            downUntil = nil
            events.append(.serverUp)
        }
        var ready = pending.map(\.delivery)
        pending.removeAll()
        Self.shuffle(&ready, random: &random)
        return events + ready.map(LifeEvent.deliver)
    }

    /// Schedules a message with its faults; answers the step of its first (or retried) delivery.
    @discardableResult
    private mutating func schedule(
        route: LifeDelivery.Route, body: String, summary: String, step: Int, extraDelay: Int, random: inout SplitMix64
    ) -> Int {
        let longest = max(1, faults.maximumDelay)
        var due = step + extraDelay
        if random.chance(faults.delay) { due += random.next(in: 1...longest) }
        var attempt = LifeDelivery.Attempt.first
        if random.chance(faults.lostAttempt) {
            due += random.next(in: 1...longest)
            attempt = .retry
        }
        pending.append(Pending(
            due: due,
            delivery: LifeDelivery(route: route, body: body, instance: random.next(below: 2), attempt: attempt, summary: summary, sentAtStep: step)))
        if random.chance(faults.duplicate) {
            for _ in 0..<random.next(in: 1...2) {
                pending.append(Pending(
                    due: due + random.next(in: 0...longest),
                    delivery: LifeDelivery(
                        route: route, body: body, instance: random.next(below: 2), attempt: .duplicate, summary: summary, sentAtStep: step)))
            }
        }
        return due
    }

    /// Fisher-Yates with the life's generator.
    static func shuffle<Element>(_ elements: inout [Element], random: inout SplitMix64) {
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            elements.swapAt(index, random.next(below: index + 1))
        }
    }

    /// `DID_RENEW (2000000003 of 2000000001)`.
    static func summary(of notification: ServerNotification) -> String {
        let type = notification.payload.notificationType.rawValue + (notification.payload.subtype.map { "/" + $0.rawValue } ?? "")
        let status = notification.payload.status.map { " status \($0.rawValue)" } ?? ""
        guard let transaction = notification.transaction else { return "notification \(type)\(status)" }
        return "notification \(type)\(status) (\(describe(transaction)))"
    }

    /// `post 2000000001 … by account-1`.
    static func summary(of device: DeviceTransaction) -> String {
        "post \(describe(device.payload)) by \(device.account)"
    }

    /// A transaction in a few words: id, original, product, ownership, token, revocation.
    static func describe(_ transaction: TransactionPayload) -> String {
        var words = [transaction.transactionID]
        if transaction.originalTransactionID != transaction.transactionID { words.append("of \(transaction.originalTransactionID)") }
        words.append(transaction.productID)
        if transaction.quantity != 1 { words.append("x\(transaction.quantity)") }
        if transaction.ownership == .familyShared { words.append("family-shared") }
        if transaction.appAccountToken == nil { words.append("no token") }
        if let expires = transaction.expiresDate { words.append("expires \(expires.timeIntervalSince1970)") }
        if transaction.revocationDate != nil { words.append("REVOKED") }
        return words.joined(separator: " ")
    }
}
