import Foundation
import StorekeeperServerLives
import StorekeeperServerTestSupport
import StorekeeperStoreModel
import Testing

/// Issue 24's property: random lives of the App Store model (docs/store-model.md) driven through the server
/// over real HTTP on loopback, with faulty delivery (duplicates, delays, lost attempts, reordering, stale
/// copies, the server down for a while, devices off). At every checkpoint each app account's
/// `GET /v1/entitlements` must equal the model's, and every spend must be accepted exactly when the model
/// accepts it; any error status or transport error is a failure too. Each failure names its seed, its step,
/// its account, what each side said, and the command that replays it.
///
/// The seeds are fixed so that the suite is the same on every run; `STOREKEEPER_LIVES_FIRST_SEED` moves them
/// (and `storekeeper-server-lives --lives 10000` runs many more).
@Suite(.serialized) struct RandomLivesTests {
    /// Lives per backend: a few hundred in all, a couple of minutes (docs/server.md, "Random lives").
    static let sqliteLives = 120
    static let postgresLives = 60
    static let twoInstanceLives = 60

    static let firstSeed: UInt64 = ProcessInfo.processInfo.environment["STOREKEEPER_LIVES_FIRST_SEED"].flatMap { UInt64($0) } ?? 1

    static func run(_ database: LifeDatabase, instances: Int, lives: Int, offset: UInt64) async throws {
        let url = database == .postgres ? try TestPostgres.url() : nil
        let driver = try await LivesDriver(world: try LivesWorld(), options: LivesOptions(database: database, instances: instances, postgresURL: url))
        let first = firstSeed &+ offset
        let report = await driver.run(seeds: first..<(first &+ UInt64(lives)))
        await driver.close()
        print("random lives: \(report.figures)\n\(report.mix)")
        #expect(report.lives == lives)
        #expect(report.counts.checkpoints >= lives, "every life ends with a checkpoint")
        #expect(report.failures.isEmpty, "\(report.distinct.count) distinct disagreement(s):\n\(report.failureReport(storyLines: 30))")
    }

    @Test func livesOnSQLiteAgreeWithTheModel() async throws {
        try await Self.run(.sqlite, instances: 1, lives: Self.sqliteLives, offset: 0)
    }

    @Test(.enabled(if: TestBackend.available.contains(.postgres), "PostgreSQL's programs are not on this machine"))
    func livesOnPostgreSQLAgreeWithTheModel() async throws {
        try await Self.run(.postgres, instances: 1, lives: Self.postgresLives, offset: 100_000)
    }

    @Test(.enabled(if: TestBackend.available.contains(.postgres), "PostgreSQL's programs are not on this machine"))
    func livesOnTwoInstancesSharingPostgreSQLAgreeWithTheModel() async throws {
        try await Self.run(.postgres, instances: 2, lives: Self.twoInstanceLives, offset: 200_000)
    }
}
