import Foundation
import StorekeeperCore
public import StorekeeperRuntime

/// One random life of the App Store model, from a seed: a few people (an Apple ID each, with the app account
/// signed in on its device), some in a family, then steps: actions of every kind that the world allows now,
/// the clock moving on by minutes to months (renewals, grace periods, billing retry and expiries happen on
/// their own), checkpoints and spends. What Apple sends goes through ``FaultyDelivery``.
///
/// A driver calls ``next()`` until it answers nil and does what each ``LifeMoment`` says, with its server's
/// clock at the moment's instant. Everything is drawn from StorekeeperCore's `SplitMix64` seeded with
/// ``seed``, and the model is deterministic: the same seed, policy and settings give the same life, byte
/// for byte, on every machine.
public struct RandomLife: Sendable {
    /// The seed everything is drawn from.
    public let seed: UInt64
    /// The settings the life was drawn with.
    public let settings: LifeSettings
    /// Its people.
    public let people: [LifePerson]
    /// How many steps it takes after setting up (the last one is a checkpoint).
    public let length: Int
    /// The model, as it is now.
    public private(set) var model: StoreModel
    /// The next step's number.
    public private(set) var step = 0
    /// Actions the model refused (another was drawn), so far.
    public private(set) var refusals = 0
    /// How many actions of each kind (`buy`, `refund`, …, and `advance`) the life performed, so far.
    public private(set) var performed: [String: Int] = [:]
    /// How many actions of each kind the model refused, so far.
    public private(set) var refused: [String: Int] = [:]
    /// Deliveries handed to the driver so far.
    public private(set) var deliveries = 0
    /// Checkpoints so far.
    public private(set) var checkpoints = 0
    /// Spends so far.
    public private(set) var spends = 0
    /// What the world's steps were, one line each (deliveries not included), for failure reports.
    public private(set) var story: [String] = []

    /// Messages a device missed because it was off, so far.
    public var missedByDevices: Int { delivery.missed }

    var random: SplitMix64
    var delivery: FaultyDelivery
    /// The action performed at the current step, for its moment.
    var lastAction: StoreAction?
    var known = LifeKnowledge()
    let products: [ProductPolicy]
    let balances: [String]

    /// The grace period settings a life draws from (App Store Connect's choices: off, 3, 16 or 28 days).
    /// Source: https://developer.apple.com/help/app-store-connect/manage-subscriptions/enable-billing-grace-period-for-auto-renewable-subscriptions
    static let gracePeriods: [Int?] = [nil, 3, 16, 28]

    /// A life from `seed`: `configuration`'s bundle, environment and signer, with a start and a grace period
    /// drawn from the seed.
    public init(seed: UInt64, policy: CompiledPolicy, configuration: StoreModel.Configuration, settings: LifeSettings = .standard) {
        self.seed = seed
        self.settings = settings
        var random = SplitMix64(seed: seed)
        let count = random.next(in: settings.people)
        people = (1...max(1, count)).map { LifePerson(appleID: "apple-id-\($0)", account: "account-\($0)") }
        length = random.next(in: settings.steps)
        var configuration = configuration
        // Any minute of the first two weeks of 2026, so that lives cross month ends of different lengths.
        configuration.start = Date(timeIntervalSince1970: 1_767_225_600 + Double(random.next(below: 14 * 1_440)) * 60)
        configuration.billingGracePeriodDays = Self.gracePeriods[random.next(below: Self.gracePeriods.count)]
        model = StoreModel(policy: policy, configuration: configuration)
        products = policy.products
        balances = policy.balances
        delivery = FaultyDelivery(faults: settings.faults)
        self.random = random
    }

    /// The next moment, or nil when the life is over.
    public mutating func next() throws(LifeError) -> LifeMoment? {
        guard step <= length else { return nil }
        let current = step
        step += 1
        var happened: String
        var messages: [StoreMessage]
        lastAction = nil
        if current == 0 {
            (happened, messages) = try setUp()
        } else if current == length {
            (happened, messages) = ("the end", [])
        } else {
            (happened, messages) = try live()
        }
        known.learn(messages)
        let notes = delivery.receive(messages, step: current, random: &random)
        var events = delivery.due(step: current, random: &random)
        if current == length || (current > 0 && random.chance(settings.checkpointChance)) {
            events += checkpoint()
        }
        let line = "step \(current) at \(Self.format(model.now)): \(happened)" + notes.map { "\n    " + $0 }.joined()
        story.append(line)
        deliveries += events.count { if case .deliver = $0 { true } else { false } }
        return LifeMoment(step: current, at: model.now, happened: line, events: events, action: lastAction, messages: messages)
    }

    /// Step 0: every device signs in to the app; some people join a family.
    private mutating func setUp() throws(LifeError) -> (String, [StoreMessage]) {
        var lines: [String] = []
        var messages: [StoreMessage] = []
        for person in people {
            messages += try perform(.signIn(appleID: person.appleID, account: person.account), required: true)
            lines.append("\(person.appleID) signs in as \(person.account)")
        }
        if people.count > 1, random.chance(0.5) {
            let organizer = people[0].appleID
            for person in people.dropFirst() where random.chance(0.6) {
                let action = StoreAction.joinFamily(appleID: person.appleID, organizer: organizer)
                messages += try perform(action, required: true)
                lines.append("\(person.appleID) joins the family of \(organizer)")
            }
        }
        return (lines.joined(separator: "; "), messages)
    }

    /// A step of life: an action the world accepts (a few tries), else the clock moves on.
    private mutating func live() throws(LifeError) -> (String, [StoreMessage]) {
        for _ in 0..<8 {
            guard let action = randomAction() else { break }
            if case .advance(let seconds) = action {
                return try advance(by: seconds)
            }
            if case .act(let storeAction) = action {
                var trial = model
                do {
                    let messages = try trial.perform(storeAction)
                    model = trial
                    lastAction = storeAction
                    performed[Self.kind(of: storeAction), default: 0] += 1
                    return (Self.describe(storeAction), messages)
                } catch {
                    refusals += 1
                    refused[Self.kind(of: storeAction), default: 0] += 1
                }
            }
        }
        return try advance(by: randomDuration())
    }

    /// The clock moves on by `seconds`.
    private mutating func advance(by seconds: TimeInterval) throws(LifeError) -> (String, [StoreMessage]) {
        let target = model.now.addingTimeInterval(seconds)
        do {
            let messages = try model.advance(to: target)
            performed["advance", default: 0] += 1
            return ("the clock moves on \(Self.format(duration: seconds))", messages)
        } catch {
            throw LifeError(seed: seed, step: step - 1, message: "the model refused to move its clock to \(Self.format(target)): \(error)")
        }
    }

    /// Performs an action the life cannot do without (setting up).
    private mutating func perform(_ action: StoreAction, required: Bool) throws(LifeError) -> [StoreMessage] {
        do {
            return try model.perform(action)
        } catch {
            throw LifeError(seed: seed, step: step - 1, message: "the model refused \(Self.describe(action)): \(error)")
        }
    }

    /// Everything delivered, then every app account's expected entitlements; maybe a spend.
    private mutating func checkpoint() -> [LifeEvent] {
        checkpoints += 1
        var events = delivery.flush(random: &random)
        events.append(.checkpoint(people.map { LifeExpectation(account: $0.account, entitlements: model.entitlements(of: $0.account)) }))
        if !balances.isEmpty, random.chance(settings.spendChance) {
            let person = people[random.next(below: people.count)]
            let balance = balances[random.next(below: balances.count)]
            let held = model.entitlements(of: person.account).balances[balance] ?? 0
            let amount: Int = switch random.next(below: 4) {
            case 0: max(1, held)
            case 1: held + random.next(in: 1...50)
            default: random.next(in: 1...max(1, held))
            }
            let accepted = model.canSpend(account: person.account, balance: balance, amount: amount)
            if accepted {
                var trial = model
                if (try? trial.perform(.spend(account: person.account, balance: balance, amount: amount))) != nil { model = trial }
            }
            spends += 1
            let key = "life-\(seed)-spend-\(spends)"
            events.append(.spend(LifeSpend(
                account: person.account, balance: balance, amount: amount, key: key, accepted: accepted, repeated: random.chance(0.2))))
        }
        return events
    }

    /// An action's kind: its case's name (`buy`, `refund`, `joinFamily`, …).
    static func kind(of action: StoreAction) -> String {
        String(String(describing: action).prefix { $0 != "(" })
    }

    /// `2026-01-07T10:00:00Z`.
    static func format(_ date: Date) -> String { date.formatted(.iso8601) }

    /// `3 d 4 h 5 min`.
    static func format(duration seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        let parts = [(minutes / 1_440, "d"), (minutes % 1_440 / 60, "h"), (minutes % 60, "min")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0 min" : parts.map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }
}
