import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorekeeperRuntime
import StorekeeperServer
public import StorekeeperStoreModel

/// How lives are run: on which database, with how many server instances, drawn with which settings.
public struct LivesOptions: Sendable {
    /// The database of the ledger.
    public var database: LifeDatabase
    /// Server instances sharing the ledger (2 only on PostgreSQL); deliveries are spread over them.
    public var instances: Int
    /// PostgreSQL's URL (never printed: it holds a password).
    public var postgresURL: String?
    /// The lives' settings.
    public var settings: LifeSettings
    /// Whether each person has a device (the app's queue over StoreKit 2, talking to the server over HTTP)
    /// that posts what Apple sends it, instead of the driver posting it; checkpoints then compare the
    /// device's entitlements too (Devices/DeviceLife.swift).
    public var devices: Bool

    /// Options.
    public init(
        database: LifeDatabase, instances: Int = 1, postgresURL: String? = nil, settings: LifeSettings = .standard, devices: Bool = false
    ) {
        self.database = database
        self.instances = instances
        self.postgresURL = postgresURL
        self.settings = settings
        self.devices = devices
    }

    /// The command that replays `seed` with these options, from the repository's root.
    public func replayCommand(seed: UInt64) -> String {
        let environment = database == .postgres ? #"STOREKEEPER_TEST_POSTGRES_URL="$(Scripts/postgres url)" "# : ""
        let misses = settings.faults.offDevicesMissUpdates ? " --devices-miss-updates" : ""
        let devices = self.devices ? " --devices" : ""
        return "\(environment)swift run --package-path Server storekeeper-server-lives --replay \(seed) --database \(database) --instances \(instances)\(misses)\(devices)"
    }
}

/// What one life did.
public struct LifeOutcome: Sendable {
    /// Its seed.
    public var seed: UInt64
    /// What it did, counted.
    public var counts = LifeCounts()
    /// Where it failed, if it did.
    public var failure: LifeFailure?
    /// Its story with every request and answer (kept only when asked for).
    public var transcript: [String] = []
}

/// Runs random lives through real servers over real HTTP on loopback: for each life a fresh ledger, one or
/// two server instances reading the life's clock, the life's deliveries posted through AsyncHTTPClient, and
/// at each checkpoint every app account's `GET /v1/entitlements` (on every instance) compared with the
/// model's. The first disagreement or fault ends the life.
public final class LivesDriver: Sendable {
    /// The shared world.
    public let world: LivesWorld
    /// The options.
    public let options: LivesOptions
    private let ledgers: LifeLedgers

    /// A driver; on PostgreSQL it makes and migrates the run's schema.
    public init(world: LivesWorld, options: LivesOptions) async throws {
        guard (1...2).contains(options.instances) else { throw LivesError("instances: \(options.instances); 1 or 2") }
        self.world = world
        self.options = options
        ledgers = try await LifeLedgers(database: options.database, instances: options.instances, url: options.postgresURL)
    }

    /// Closes the storages and drops the run's PostgreSQL schema.
    public func close() async {
        await ledgers.close()
    }

    /// Runs the life of `seed`; `transcript` keeps its whole story with every request.
    public func run(seed: UInt64, transcript keep: Bool = false) async -> LifeOutcome {
        var life = world.life(seed: seed, settings: options.settings)
        var outcome = LifeOutcome(seed: seed)
        var log: [String] = []
        let clock = LifeClock(life.model.now)
        do {
            try await ledgers.withEmptyLedger { storages in
                let instances = storages.map { LifeInstance(configuration: world.server, storage: $0, clock: clock) }
                do {
                    for instance in instances { try await instance.start() }
                    if options.devices {
                        try await liveWithDevices(&life, instances: instances, clock: clock, outcome: &outcome, log: &log)
                    } else {
                        try await live(&life, instances: instances, clock: clock, outcome: &outcome, log: &log)
                    }
                } catch {
                    for instance in instances { await instance.stop() }
                    throw error
                }
                for instance in instances { await instance.stop() }
            }
        } catch let failure as LifeFailure {
            outcome.failure = failure
        } catch let error as LifeError {
            outcome.failure = failure("model", "the model stopped the life", step: error.step, at: clock.now, account: nil,
                                      expected: "a model that can go on", got: error.message, seed: seed, log: log)
        } catch {
            outcome.failure = failure("driver", "the driver could not run the life", step: life.step, at: clock.now, account: nil,
                                      expected: "servers that start and stop", got: "\(error)", seed: seed, log: log)
        }
        outcome.counts.steps = life.step
        outcome.counts.checkpoints = life.checkpoints
        outcome.counts.spends = life.spends
        outcome.counts.refusals = life.refusals
        outcome.counts.missed = life.missedByDevices
        outcome.counts.performed = life.performed
        outcome.counts.refused = life.refused
        if keep { outcome.transcript = log }
        return outcome
    }

    private func live(
        _ life: inout RandomLife, instances: [LifeInstance], clock: LifeClock, outcome: inout LifeOutcome, log: inout [String]
    ) async throws {
        var down = false
        while let moment = try life.next() {
            clock.set(moment.at)
            log.append(moment.happened)
            for event in moment.events {
                switch event {
                case .serverDown:
                    for instance in instances { await instance.stop() }
                    down = true
                    log.append("  the server goes down")
                case .serverUp:
                    for instance in instances { try await instance.start() }
                    down = false
                    outcome.counts.restarts += 1
                    log.append("  the server is back")
                case .deliver(let delivery):
                    guard !down else {
                        throw failure("driver", "a delivery while the server is down", step: moment.step, at: moment.at, account: nil,
                                      expected: "nothing sent while down", got: delivery.line, seed: life.seed, log: log)
                    }
                    outcome.counts.deliveries += 1
                    outcome.counts.attempts[delivery.attempt.rawValue, default: 0] += 1
                    try await deliver(delivery, instances: instances, clock: clock, moment: moment, seed: life.seed, log: &log)
                case .checkpoint(let expectations):
                    log.append("  checkpoint")
                    for expectation in expectations {
                        try await check(expectation, instances: instances, clock: clock, moment: moment, seed: life.seed, log: &log)
                    }
                case .spend(let spend):
                    let instance = instances[life.spends % instances.count]
                    try await self.spend(spend, instance: instance, clock: clock, moment: moment,
                                         seed: life.seed, log: &log)
                }
            }
        }
    }

    /// Sends one delivery; anything but 200 stops the life (503 is retried: it asks for a retry).
    func deliver(
        _ delivery: LifeDelivery, instances: [LifeInstance], clock: LifeClock, moment: LifeMoment, seed: UInt64, log: inout [String]
    ) async throws {
        let instance = instances[delivery.instance % instances.count]
        let path: String
        var headers: [(String, String)] = []
        var account: String?
        switch delivery.route {
        case .notification:
            path = "/v1/notifications/sandbox"
        case .transaction(let who):
            path = "/v1/transactions"
            account = who
            headers.append(("Authorization", "Bearer \(try token(who, clock: clock))"))
        }
        let answer = try await send("POST", path, to: instance, headers: headers, body: delivery.body, moment: moment, seed: seed, log: log)
        let on = instances.count > 1 ? " to instance \(delivery.instance % instances.count)" : ""
        log.append("  → \(delivery.line)\(on): \(answer.status)\(answer.status == 200 ? "" : " " + answer.body)")
        guard answer.status == 200 else {
            let what = delivery.route == .notification ? "notification" : "transaction post"
            throw failure("delivery", "\(what) answered \(answer.status) \(Self.errorCode(answer.body))", step: moment.step, at: moment.at,
                          account: account, expected: "200 for \(delivery.line)", got: "\(answer.status) \(answer.body)", seed: seed, log: log)
        }
    }

    /// Compares an account's served entitlements, on every instance, with the model's.
    func check(
        _ expectation: LifeExpectation, instances: [LifeInstance], clock: LifeClock, moment: LifeMoment, seed: UInt64, log: inout [String]
    ) async throws {
        for (index, instance) in instances.enumerated() {
            let headers = [("Authorization", "Bearer \(try token(expectation.account, clock: clock))")]
            let answer = try await send("GET", "/v1/entitlements", to: instance, headers: headers, body: nil, moment: moment, seed: seed, log: log)
            let on = instances.count > 1 ? " (instance \(index))" : ""
            guard answer.status == 200 else {
                throw failure("entitlements", "GET /v1/entitlements answered \(answer.status)", step: moment.step, at: moment.at,
                              account: expectation.account, expected: "200", got: "\(answer.status) \(answer.body)\(on)", seed: seed, log: log)
            }
            let served: ExpectedEntitlements
            switch ServedEntitlements.read(answer.body, balances: world.policy.balances) {
            case .success(let read): served = read
            case .failure(let error):
                throw failure("entitlements", "GET /v1/entitlements is not the contract's JSON", step: moment.step, at: moment.at,
                              account: expectation.account, expected: expectation.entitlements.description, got: error.description + on,
                              seed: seed, log: log)
            }
            let differences = ServedEntitlements.differences(expected: expectation.entitlements, served: served)
            log.append("    \(expectation.account)\(on): \(differences.isEmpty ? "agrees" : "DIFFERS in " + differences.joined(separator: ", "))")
            guard differences.isEmpty else {
                throw failure("entitlements", "entitlements differ in \(differences.joined(separator: ", "))", step: moment.step,
                              at: moment.at, account: expectation.account, expected: expectation.entitlements.description,
                              got: served.description + on, seed: seed, log: log)
            }
        }
    }

    /// Makes a spend (twice when it is repeated) and checks the server's verdict is the model's.
    private func spend(
        _ spend: LifeSpend, instance: LifeInstance, clock: LifeClock, moment: LifeMoment, seed: UInt64, log: inout [String]
    ) async throws {
        let headers = [("Authorization", "Bearer \(try token(spend.account, clock: clock))")]
        let body = #"{"amount":\#(spend.amount),"balance":"\#(spend.balance)"}"#
        let key = spend.key.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? spend.key
        for attempt in 0..<(spend.repeated ? 2 : 1) {
            let answer = try await send("PUT", "/v1/spends/\(key)", to: instance, headers: headers, body: body, moment: moment, seed: seed, log: log)
            let verdict = spend.accepted ? "accepted" : "refused"
            log.append("  spend \(spend.amount) \(spend.balance) by \(spend.account)\(attempt > 0 ? " again" : ""): model \(verdict), server \(answer.status)")
            let agrees = spend.accepted ? answer.status == 200 : (answer.status == 409 && answer.body.contains("insufficient-balance"))
            guard agrees else {
                throw failure("spend", "a spend the model \(verdict) answered \(answer.status) \(Self.errorCode(answer.body))", step: moment.step,
                              at: moment.at, account: spend.account,
                              expected: spend.accepted ? "200 (spent)" : "409 insufficient-balance", got: "\(answer.status) \(answer.body)",
                              seed: seed, log: log)
            }
        }
    }

    /// One request; a 503 is retried a few times (it asks for a retry); a transport error stops the life.
    private func send(
        _ method: String, _ path: String, to instance: LifeInstance, headers: [(String, String)], body: String?, moment: LifeMoment,
        seed: UInt64, log: [String]
    ) async throws -> (status: Int, body: String) {
        guard let base = instance.baseURL else {
            throw failure("driver", "a request to a stopped instance", step: moment.step, at: moment.at, account: nil,
                          expected: "a running instance", got: "\(method) \(path)", seed: seed, log: log)
        }
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        var attempts = 0
        while true {
            attempts += 1
            let status: Int
            let text: String
            do {
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                let bytes = try await response.body.collect(upTo: 1 << 22)
                status = Int(response.status.code)
                text = String(buffer: bytes)
            } catch {
                throw failure("transport", "\(method) \(path) failed in transport", step: moment.step, at: moment.at, account: nil,
                              expected: "an answer", got: "\(error)", seed: seed, log: log)
            }
            if status == 503, attempts < 8 {
                try await Task.sleep(for: .milliseconds(20 * attempts))
                continue
            }
            return (status, text)
        }
    }

    private func token(_ account: String, clock: LifeClock) throws -> String {
        try ClientToken.issue(user: account, expiresAt: clock.now.addingTimeInterval(3_600), secret: world.server.clientTokenSecret)
    }

    func failure(
        _ kind: String, _ signature: String, step: Int, at: Date, account: String?, expected: String, got: String, seed: UInt64, log: [String]
    ) -> LifeFailure {
        LifeFailure(
            kind: kind, signature: signature, seed: seed, step: step, at: at, account: account, expected: expected, got: got,
            replay: options.replayCommand(seed: seed), story: log)
    }

    /// The contract's error code in an error body (`{"error":{"code":"…",…}}`), or "".
    static func errorCode(_ body: String) -> String {
        guard let range = body.range(of: #""code":""#) else { return "" }
        return String(body[range.upperBound...].prefix { $0 != "\"" })
    }
}
