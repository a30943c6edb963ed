import StorekeeperCatalog
import StorekeeperChildProcess
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperPlatform
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperTestSupport
import Foundation
import Testing


/// Exactly-once delivery, proven by killing the engine: `storekeeper-queue-drill`
/// runs the queue over Rocket Racer in child processes that die of SIGKILL at
/// random (a timer, or the child itself at a fault point), again and again,
/// and the result must equal a run that never crashed. The checks are made
/// here, on the reports, not taken from the drill's own verdict.
@Suite struct CrashRecoveryTests {
    /// One supervised drill: a seed and how the queue is set up.
    struct DrillSetup: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var transactions: Int
        var batchLimit: Int
        var killProbability: Double
        var durability: String
        var testDescription: String {
            "seed \(seed), \(transactions) transactions, batch limit \(batchLimit), p=\(killProbability), \(durability)"
        }
    }

    /// Kills each setup must count; with four setups, 200 for the suite.
    static let killsPerSetup = 50
    static let setups = [
        DrillSetup(seed: 1, transactions: 80, batchLimit: 512, killProbability: 0.02, durability: "full"),
        DrillSetup(seed: 2, transactions: 80, batchLimit: 16, killProbability: 0.03, durability: "app-crash"),
        DrillSetup(seed: 3, transactions: 60, batchLimit: 4, killProbability: 0.04, durability: "full"),
        DrillSetup(seed: 4, transactions: 100, batchLimit: 64, killProbability: 0.02, durability: "app-crash"),
    ]

    @Test(arguments: setups)
    func killedAgainAndAgainTheQueueEndsAsIfItNeverCrashed(_ setup: DrillSetup) async throws {
        let result = try await CrashDrill.run([
            "supervise", "--catalog", CrashDrill.catalog, "--seed", "\(setup.seed)", "--transactions", "\(setup.transactions)",
            "--kills", "\(Self.killsPerSetup)", "--batch-limit", "\(setup.batchLimit)",
            "--kill-probability", "\(setup.killProbability)", "--durability", setup.durability,
        ])
        try #require(!result.signaled && result.status == 0, "\(result)")
        let summary = try JSONDecoder().decode(CrashDrillSummary.self, from: result.stdout)
        #expect(summary.kills >= Self.killsPerSetup)
        #expect(summary.timerKills + summary.selfKills == summary.kills)
        #expect(summary.timerKills > 0 && summary.selfKills > 0, "both ways of dying: \(summary.timerKills) timer, \(summary.selfKills) self")
        #expect(summary.equal)
        // The drill's verdict, checked part by part so that a failure names what differs.
        #expect(summary.final.entitlements == summary.reference.entitlements)
        #expect(summary.final.grants == summary.reference.grants)
        #expect(summary.final.customEffects == summary.reference.customEffects)
        #expect(summary.final.appStateRecords == summary.reference.appStateRecords)
        #expect(summary.final.iCloudRecords == summary.reference.iCloudRecords)
        #expect(summary.final.contentLocations == summary.reference.contentLocations)
        #expect(summary.final.finished == summary.reference.finished)
        #expect(summary.final == summary.reference)
        try Self.checkDeliveredExactlyOnce(summary.final)
    }

    @Test func theReferenceRunDeliversSomethingOfEveryKind() async throws {
        let report = try await CrashDrill.cleanReport(seed: 1, transactions: 80, batchLimit: nil)
        let entitlements = report.entitlements
        #expect((entitlements.balances["coins"] ?? 0) > 0)
        #expect((entitlements.balances["boosts"] ?? 0) > 0)
        #expect(entitlements.features.contains("rocket-car"))
        #expect(entitlements.features.contains("season-events"))
        #expect(entitlements.ownedProducts.contains("com.example.rocketracer.seasonpass.spring"))
        #expect(entitlements.activeSubscriptions.contains { $0.product == "com.example.rocketracer.seasonpass.spring" })
        #expect(report.iCloudRecords.contains { $0.product == "com.example.rocketracer.seasonpass.spring" })
        #expect(!report.grants.isEmpty && !report.customEffects.isEmpty && !report.appStateRecords.isEmpty)
        // Spends: some go through, some ask more than is left; nothing is ever overdrawn.
        #expect(report.spends.values.contains { $0.hasPrefix("spent ") })
        #expect(report.spends.values.contains { $0.hasSuffix(": insufficient-balance") })
        #expect(report.entitlements.overdrawn.isEmpty)
        #expect(report.contentLocations.count == 2)
        // The stream has every outcome, so that failed and never-answered transactions are drilled too.
        let outcomes = Set(report.stream.map(\.outcome))
        #expect(outcomes == ["purchased", "failed", "deferred"])
        #expect(report.stream.contains { $0.error == "payment-cancelled" })
        #expect(report.stream.contains { $0.outcome == "failed" && $0.error != "payment-cancelled" })
        try Self.checkDeliveredExactlyOnce(report)
    }

    /// The queue's fault points and the drill's own (inside the store's
    /// finish, the custom step, the record store and the download).
    static let killPoints = [
        "beforeCommit", "afterCommit", "beforeFinish", "afterFinish", "storeFinishBefore", "storeFinishTorn", "storeFinishAfter",
        "stepBefore", "stepAfter", "recordBefore", "recordAfter", "downloadBefore", "downloadAfter", "beforeSpend", "spendJournalled",
    ]

    @Test(arguments: killPoints)
    func aKillAtEachPointIsRecoveredByTheNextLaunch(_ point: String) async throws {
        let seed: UInt64 = 5
        let transactions = 60
        let reference = try await CrashDrill.cleanReport(seed: seed, transactions: transactions, batchLimit: 8)
        // The first time the point is reached, and the third (mid-launch, after commits and finishes).
        for count in [1, 3] {
            let state = try QueueFixtures.folder("crash-\(point)-\(count)")
            defer { try? FileManager.default.removeItem(at: state) }
            let arguments = CrashDrill.runArguments(state: state.path, seed: seed, transactions: transactions, batchLimit: 8)
            let killed = try await CrashDrill.run(arguments + ["--kill-at", point, "--kill-after", "\(count)"])
            try #require(killed.signaled && killed.status == SIGKILL, "the launch was to die at \(point) #\(count): \(killed)")
            #expect(killed.stderr.contains("killing itself at \(point)"))
            let relaunched = try await CrashDrill.run(arguments)
            try #require(!relaunched.signaled && relaunched.status == 0, "after a kill at \(point) #\(count): \(relaunched)")
            let report = try JSONDecoder().decode(CrashDrillReport.self, from: relaunched.stdout)
            #expect(report == reference, "after a kill at \(point) #\(count)")
            try Self.checkDeliveredExactlyOnce(report)
        }
    }

    /// The drill's journal cases, each in child processes: a journal emptied
    /// or cut short after a complete launch is refused at the next (exit 1,
    /// naming it), left as it is, and nothing is finished; a second process
    /// on a journal held open is refused as in use while the first completes
    /// with the reference report; two launches started together on a fresh
    /// folder never both write it.
    @Test func theJournalCasesOfTheDrill() async throws {
        let result = try await CrashDrill.run(["journal", "--catalog", CrashDrill.catalog, "--seed", "6", "--transactions", "40"])
        try #require(!result.signaled, "\(result)")
        let summary = try JSONDecoder().decode(CrashDrillJournalSummary.self, from: result.stdout)
        let cases = Dictionary(summary.cases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(cases.keys.sorted() == ["cut-short", "second-process", "simultaneous", "zero-bytes"])

        for (name, words, bytes) in [("zero-bytes", "empty", 0), ("cut-short", "cut short", 1_000)] {
            let refusal = try #require(cases[name])
            let launch = try #require(refusal.launches.first)
            #expect(launch.exitStatus == 1, "\(name): \(launch.standardError)")
            #expect(launch.standardError.contains(refusal.journal) && launch.standardError.contains(words), "\(name): \(launch.standardError)")
            #expect(refusal.journalBytesBefore == bytes && refusal.journalBytesAfter == bytes, "\(name): the journal is left as it was")
            #expect(refusal.finishedLogUnchanged, "\(name): nothing was finished")
        }

        let shared = try #require(cases["second-process"])
        let holder = try #require(shared.launches.first { $0.role == "holder" })
        let second = try #require(shared.launches.first { $0.role == "second" }, "the second launch ran while the first held the journal")
        #expect(holder.exitStatus == 0 && holder.reportEqualsReference == true, "\(holder.standardError)")
        #expect(second.exitStatus == 1, "\(second.standardError)")
        #expect(second.standardError.contains(shared.journal) && second.standardError.contains("in use"), "\(second.standardError)")
        #expect(shared.finishedLogUnchanged, "the refused launch finished nothing")

        let together = try #require(cases["simultaneous"])
        #expect(together.launches.count == 2)
        #expect(together.launches.contains { $0.reportEqualsReference == true }, "one of them completed")
        for launch in together.launches {
            #expect(launch.reportEqualsReference == true || (launch.exitStatus == 1 && launch.standardError.contains("in use")),
                    "each completes as a clean launch would or is refused as in use: \(launch.standardError)")
        }
        #expect(summary.passed && result.status == 0, "the drill's own verdict agrees: \(result)")
    }

    /// Every transaction that ended is finished (and no other); each purchased
    /// consumable has exactly one ledger row per balance its product grants,
    /// with the product's amount times the quantity; the balances are the
    /// ledger's sums; each has one audit-log effect and one app-state record.
    static func checkDeliveredExactlyOnce(_ report: CrashDrillReport, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let policy = try QueueFixtures.example("rocket-racer")
        let terminal = Set(report.stream.filter { $0.outcome != "deferred" }.map(\.id))
        #expect(Set(report.finished) == terminal, "finished in the store", sourceLocation: sourceLocation)
        #expect(report.finished.count == Set(report.finished).count, sourceLocation: sourceLocation)

        var expectedGrants: [String: Int] = [:]
        var expectedEffects: [String] = []
        for transaction in report.stream where transaction.outcome == "purchased" {
            let handle = try #require(policy.product(id: transaction.product), sourceLocation: sourceLocation)
            let product = policy.product(handle)
            guard product.type == .consumable else { continue }
            for grant in product.grants {
                expectedGrants["\(transaction.id) \(grant.balance)"] = grant.amount * transaction.quantity
            }
            expectedEffects.append(transaction.id)
        }
        let rows = report.grants.map { "\($0.transaction) \($0.balance)" }
        #expect(rows.count == Set(rows).count, "one ledger row per transaction and balance", sourceLocation: sourceLocation)
        let ledger = Dictionary(report.grants.map { ("\($0.transaction) \($0.balance)", $0.amount) }, uniquingKeysWith: +)
        #expect(ledger == expectedGrants, sourceLocation: sourceLocation)
        // The balances are the ledger's sums less each spend that went through, once; the last spend of a balance left what remains.
        var balances = Dictionary(report.grants.map { ($0.balance, $0.amount) }, uniquingKeysWith: +)
        var lastLeft: [String: (index: Int, left: Int)] = [:]
        for (key, answer) in report.spends {
            let words = answer.split(separator: " ").map(String.init)
            guard words.first == "spent", words.count == 5, let amount = Int(words[1]), let left = Int(words[4]),
                  let index = Int(key.split(separator: "-").last ?? "") else { continue }
            let balance = String(words[2].dropLast())
            balances[balance, default: 0] -= amount
            #expect(left >= 0, "\(key): \(answer)", sourceLocation: sourceLocation)
            if index >= lastLeft[balance]?.index ?? -1 { lastLeft[balance] = (index, left) }
        }
        #expect(report.entitlements.balances == balances.filter { $0.value != 0 }, sourceLocation: sourceLocation)
        for (balance, last) in lastLeft { #expect(report.entitlements.balances[balance] ?? 0 == last.left, "\(balance)", sourceLocation: sourceLocation) }
        #expect(report.entitlements.overdrawn.isEmpty, sourceLocation: sourceLocation)
        #expect(report.customEffects.map(\.transaction).sorted() == expectedEffects.sorted(), sourceLocation: sourceLocation)
        #expect(report.appStateRecords.map(\.transaction).sorted() == expectedEffects.sorted(), sourceLocation: sourceLocation)
    }
}

// MARK: - The drill's output

/// `supervise`'s summary, as the drill prints it.
struct CrashDrillSummary: Decodable {
    var kills: Int
    var launches: Int
    var timerKills: Int
    var selfKills: Int
    var selfKillPoints: [String: Int]
    var rounds: Int
    var reference: CrashDrillReport
    var final: CrashDrillReport
    var equal: Bool
}

/// A completed launch's report, as the drill prints it.
struct CrashDrillReport: Decodable, Equatable {
    struct Entitlements: Decodable, Equatable {
        var features: [String]
        var balances: [String: Int]
        var ownedProducts: [String]
        var activeSubscriptions: [Subscription]
        var overdrawn: [String: Int]
    }

    struct Subscription: Decodable, Equatable {
        var product: String
        var expires: Double?
    }

    struct Grant: Decodable, Equatable {
        var transaction: String
        var balance: String
        var amount: Int
    }

    struct CustomEffect: Decodable, Equatable {
        var transaction: String
        var step: String
        var detail: String
    }

    struct Record: Decodable, Equatable {
        var product: String
        var transaction: String
        var value: String
        var user: String?
        var purchaseDate: Double
        var expirationDate: Double?
    }

    struct StreamTransaction: Decodable, Equatable {
        var id: String
        var product: String
        var quantity: Int
        var outcome: String
        var error: String?
    }

    var entitlements: Entitlements
    var grants: [Grant]
    var customEffects: [CustomEffect]
    var appStateRecords: [Record]
    var iCloudRecords: [Record]
    var contentLocations: [String: String]
    var finished: [String]
    var stream: [StreamTransaction]
    /// Each spend's answer by key: `spent A BALANCE, left N` or `refused A BALANCE: insufficient-balance`.
    var spends: [String: String]
}

/// `journal`'s summary, as the drill prints it.
struct CrashDrillJournalSummary: Decodable {
    struct Launch: Decodable {
        var role: String
        var exitStatus: Int32?
        var signal: Int32?
        var standardError: String
        var reportEqualsReference: Bool?
    }

    struct Case: Decodable {
        var name: String
        var journal: String
        var launches: [Launch]
        var journalBytesBefore: Int?
        var journalBytesAfter: Int?
        var finishedLogUnchanged: Bool
        var passed: Bool
    }

    var cases: [Case]
    var passed: Bool
}

// MARK: - Running the drill

/// What one run of the drill produced.
struct CrashDrillResult: CustomStringConvertible {
    /// The exit status, or the signal number when ``signaled``.
    var status: Int32
    var signaled: Bool
    var stdout: Data
    var stderr: String

    var description: String {
        "[\(signaled ? "killed by signal \(status)" : "exit \(status)")]\n--- stderr ---\n\(stderr.prefix(4000))"
    }
}

/// Runs `storekeeper-queue-drill`, built next to the test bundle, as the CLI tests run `storekeeper`.
enum CrashDrill {
    static let catalog = "\(QueueFixtures.packageRoot)/Catalogs/rocket-racer/catalog.yaml"

    /// The directory that holds the test bundle, and so the drill.
    static let productsDirectory: URL = {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        #else
        let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: this).deletingLastPathComponent()
        #endif
    }()

    static var executable: URL { productsDirectory.appendingPathComponent("storekeeper-queue-drill") }

    static func runArguments(state: String, seed: UInt64, transactions: Int, batchLimit: Int?) -> [String] {
        ["run", "--catalog", catalog, "--state", state, "--seed", "\(seed)", "--transactions", "\(transactions)"]
            + (batchLimit.map { ["--batch-limit", "\($0)"] } ?? [])
    }

    /// The report of a launch that is never killed, over a fresh folder.
    static func cleanReport(seed: UInt64, transactions: Int, batchLimit: Int?) async throws -> CrashDrillReport {
        let state = try QueueFixtures.folder("crash-reference-\(seed)")
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try await run(runArguments(state: state.path, seed: seed, transactions: transactions, batchLimit: batchLimit))
        try #require(!result.signaled && result.status == 0, "\(result)")
        return try JSONDecoder().decode(CrashDrillReport.self, from: result.stdout)
    }

    /// Runs the drill with `arguments` and waits for it without holding a
    /// thread of the cooperative pool (the supervisor runs for seconds);
    /// through `launcher` (a program and its arguments, `strace` say) if given.
    static func run(_ arguments: [String], through launcher: [String] = []) async throws -> CrashDrillResult {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path),
                     "no storekeeper-queue-drill at \(executable.path); build with `swift build --build-tests`")
        // Output to files, not pipes: a report is larger than a pipe holds, and nothing must drain it meanwhile.
        let folder = try QueueFixtures.folder("crash-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout")
        let err = folder.appendingPathComponent("stderr")
        try #require(FileManager.default.createFile(atPath: out.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: err.path, contents: nil))
        let outHandle = try FileHandle(forWritingTo: out)
        defer { try? outHandle.close() }
        let command = launcher.isEmpty ? [executable.path] + arguments : launcher + [executable.path] + arguments
        let descriptor = outHandle.fileDescriptor
        let run: ChildOutcome = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try ChildProcess(
                        command[0], Array(command.dropFirst()), standardOutput: .descriptor(descriptor), standardError: .capture(limit: .max)
                    ).run(timeout: .seconds(1_800))
                })
            }
        }
        let (status, signaled) = switch run.termination {
        case .exited(let status): (status, false)
        case .signalled(let signal): (signal, true)
        }
        return CrashDrillResult(status: status, signaled: signaled, stdout: try Data(contentsOf: out),
                           stderr: String(decoding: run.standardError, as: UTF8.self))
    }
}
