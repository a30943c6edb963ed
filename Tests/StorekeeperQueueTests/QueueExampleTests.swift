import Foundation
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import Testing

/// docs/queue.md's example is `QueueExample.swift`, word for word, and does
/// what the page says on the real catalog, on two devices.
@Suite struct QueueExampleTests {
    @Test func thePageShowsTheExampleThatIsCompiled() throws {
        let page = try String(contentsOfFile: QueueFixtures.packageRoot + "/docs/queue.md", encoding: .utf8)
        let example = try String(contentsOfFile: QueueFixtures.packageRoot + "/Tests/StorekeeperQueueTests/QueueExample.swift", encoding: .utf8)
        #expect(page.contains("```swift\n" + example + "```"), "docs/queue.md no longer shows QueueExample.swift")
    }

    @Test func aPurchaseOnThePhoneUnlocksTheTabletThroughICloud() async throws {
        let folder = try QueueFixtures.folder()
        let policy = try QueueFixtures.example("rocket-racer")
        let iCloud = folder.appendingPathComponent("icloud")
        try FileManager.default.createDirectory(at: iCloud, withIntermediateDirectories: true)

        let phoneStore = ScriptedStore()
        let phoneScreen = StoreScreen()
        let phone = try await launchStore(policy: policy, store: phoneStore, journal: folder.appendingPathComponent("phone.sqlite"),
                                          iCloudFolder: iCloud, device: "phone", screen: phoneScreen)
        try await phone.add(Payment(productID: "com.example.rocketracer.coins.500", quantity: 2))
        try await phone.add(Payment(productID: "com.example.rocketracer.seasonpass.spring"))
        await phone.whenIdle()
        #expect(garageAndCoins(await phone.entitlements()) == "season events open, 1000 coins")
        #expect(await phoneScreen.shown.contains("com.example.rocketracer.seasonpass.spring: purchased"))
        await phone.stop()

        // The tablet has its own journal and store: coins are the phone's
        // app state, the season pass is kept in iCloud.
        let tablet = try await launchStore(policy: policy, store: ScriptedStore(), journal: folder.appendingPathComponent("tablet.sqlite"),
                                           iCloudFolder: iCloud, device: "tablet", screen: StoreScreen())
        await tablet.whenIdle()
        #expect(garageAndCoins(await tablet.entitlements()) == "season events open, 0 coins")
        await tablet.stop()
    }
}
