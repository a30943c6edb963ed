import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

@Suite struct QueueSmokeTests {
    @Test func aConsumablePurchaseGrantsOnceAndFinishes() async throws {
        let folder = try QueueFixtures.folder()
        let policy = try QueueFixtures.example("rocket-racer")
        let store = ScriptedStore()
        let log = EventLog()
        let queue = try TransactionQueue(policy: policy, store: store, configuration: QueueFixtures.configuration(folder))
        try await queue.start(observers: [log])
        try await queue.add(Payment(productID: "com.example.rocketracer.coins.500", quantity: 3))
        await queue.whenIdle()
        let entitlements = await queue.entitlements()
        #expect(entitlements.balance("coins") == 1500)
        #expect(await store.finished == ["t1"])
        #expect(await log.removed == ["t1"])
        #expect(try await queue.customEffects().map(\.detail) == ["com.example.rocketracer.coins.500 x3"])
        await queue.stop()
    }
}
