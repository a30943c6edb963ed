import Foundation
import StorekeeperDeviceLives
import Testing

/// Random lives of devices on StoreKit 1 (docs/device-lives.md, "StoreKit 1"): each life's devices run the real
/// queue and the StoreKit 1 backend over the model-driven StoreKit 1, and at every checkpoint each device's
/// entitlements equal the model's, projected to what StoreKit 1 can tell a device.
///
/// Replay one life: `swift run storekeeper-device-lives --backend storekit1 --replay SEED`; other seeds:
/// `STOREKEEPER_DEVICE_LIVES_SEED=<first> STOREKEEPER_DEVICE_LIVES_COUNT=<n> swift test --skip-build --filter StoreKit1LivesTests`.
@Suite struct StoreKit1LivesTests {
    static let environment = ProcessInfo.processInfo.environment
    /// Seeds 1 to 200 unless told otherwise.
    static let seeds: [UInt64] = {
        let first = environment["STOREKEEPER_DEVICE_LIVES_SEED"].flatMap(UInt64.init) ?? 1
        let count = environment["STOREKEEPER_DEVICE_LIVES_COUNT"].flatMap(UInt64.init) ?? 200
        return Array(first..<(first + count))
    }()

    @Test func everyDeviceAgreesWithTheModelAtEveryCheckpoint() async throws {
        let world = try DeviceLivesFixture.world.get()
        let driver = StoreKit1LifeDriver(policy: world.policy, modelConfiguration: world.modelConfiguration)
        let clock = ContinuousClock()
        let started = clock.now
        let summary = await driver.live(seeds: Self.seeds, jobs: 2)
        print("StoreKit 1 device lives, seeds \(Self.seeds.first ?? 0)...\(Self.seeds.last ?? 0):\n"
            + summary.table(backend: StoreKit1LifeDriver.backend, elapsed: clock.now - started))
        #expect(summary.lives == Self.seeds.count)
        // The lives did what they are for: purchases, relaunches, checkpoints and each of StoreKit 1's faults.
        #expect(summary.purchases > 0 && summary.relaunches > 0 && summary.checkpoints >= summary.lives)
        if Self.seeds.count >= 100 {
            for kind in ["duplicate", "reordered", "redelivered after finish", "crash at finish", "restore", "family revocation"] {
                #expect(summary.faults[kind, default: 0] > 0, "no life drew '\(kind)'")
            }
        }
        for failure in summary.failures { Issue.record("\(failure)") }
        print("failed seeds: \(summary.failures.map(\.seed))")
    }
}
