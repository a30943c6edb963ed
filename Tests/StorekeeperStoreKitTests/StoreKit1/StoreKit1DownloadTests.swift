import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// Apple-hosted content through `SKDownload`: the `download` step starts the
/// transaction's downloads and waits for them; finish comes only after.
@Suite struct StoreKit1DownloadTests {
    /// A purchased track pack (Apple-hosted, kept in Documents) delivered to a started queue.
    private func purchaseTrackPack(_ world: StoreKit1World, id: String = "1000000100") async throws
        -> (queue: TransactionQueue, download: FakeDownload) {
        let queue = try await world.startQueue()
        let download = FakeDownload(content: "canyon-tracks")
        world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.canyon), state: .purchased, id: id,
                                           date: StoreKit1World.now, downloads: [download]))
        try await waitUntil { world.fake.calls.withLock { $0.started.count } >= 1 }
        return (queue, download)
    }

    /// A finished download's content: a folder with a file, as StoreKit leaves it in Caches.
    private func content(in world: StoreKit1World) throws -> URL {
        let url = world.folder.appendingPathComponent("Caches/StoreKit/canyon", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("track data".utf8).write(to: url.appendingPathComponent("canyon.track"))
        return url
    }

    private func waitUntil(_ condition: @Sendable () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the condition did not hold within 120 seconds (a bound for a loaded machine, not a timing test: 30 was passed with the whole suite running beside two other builds on two cores)", sourceLocation: sourceLocation)
    }

    @Test func theDownloadStepWaitsForTheContentAndOnlyThenIsTheTransactionFinished() async throws {
        let world = try StoreKit1World()
        var progress = world.backend.downloadProgress().makeAsyncIterator()
        let (queue, download) = try await purchaseTrackPack(world)
        #expect(world.fake.calls.withLock { $0.started } == ["canyon-tracks"])
        #expect(world.fake.finished.isEmpty, "not finished while its content downloads")

        download.set(.active, progress: 0.5)
        world.backend.updatedDownloads([download])
        let halfway = await progress.next()
        #expect(halfway == StoreKit1DownloadProgress(transactionID: "1000000100", productID: StoreKit1World.canyon,
                                                      contentIdentifier: "canyon-tracks", state: .active, progress: 0.5))
        #expect(world.fake.finished.isEmpty)

        download.set(.finished, progress: 1, url: try content(in: world))
        world.backend.updatedDownloads([download])
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(world.fake.finished == ["1000000100"])
        // Kept in Documents (the catalog's storage), moved out of StoreKit's folder.
        let placed = world.folder.appendingPathComponent("Documents/StoreKit/\(StoreKit1World.canyon)").path
        #expect(try await queue.contentLocations()[StoreKit1World.canyon]?.path == placed)
        #expect(FileManager.default.fileExists(atPath: placed + "/canyon.track"))
        #expect(await queue.entitlements().isUnlocked("canyon-tracks"))
        await queue.stop()
    }

    @Test func aFailedDownloadIsRetriedAndStartsAgain() async throws {
        let world = try StoreKit1World()
        let (queue, download) = try await purchaseTrackPack(world)
        download.set(.failed, progress: 0.3, error: StoreKit1Error(domain: StoreKit1Error.urlDomain, code: -1009, message: "The Internet connection appears to be offline."))
        world.backend.updatedDownloads([download])
        try await waitUntil { world.fake.calls.withLock { $0.started.count } >= 2 }
        let failure = try #require(await world.log.failures.first)
        #expect(failure.step == "download")
        #expect(failure.failure.isTransient)
        #expect(failure.failure.reason.contains("offline"))
        #expect(failure.failure.reason.contains("30%"))
        #expect(world.fake.finished.isEmpty)

        download.set(.finished, progress: 1, url: try content(in: world))
        world.backend.updatedDownloads([download])
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(world.fake.finished == ["1000000100"])
        await queue.stop()
    }

    @Test func aPausedDownloadWaitsForTheUserAndGoesOnOnceResumed() async throws {
        let world = try StoreKit1World()
        let (queue, download) = try await purchaseTrackPack(world)
        download.set(.active, progress: 0.4)
        world.backend.pauseDownloads(transactionID: "1000000100")
        #expect(world.fake.calls.withLock { $0.paused } == ["canyon-tracks"])
        try await waitUntil { await world.log.failures.count >= 3 }
        #expect(await world.log.failures.allSatisfy { $0.failure.isTransient && $0.failure.reason.contains("paused") })
        #expect(world.fake.calls.withLock { $0.started.count } == 1, "a download the user paused is not started again")
        #expect(world.fake.finished.isEmpty)

        world.backend.resumeDownloads(transactionID: "1000000100")
        #expect(world.fake.calls.withLock { $0.resumed } == ["canyon-tracks"])
        download.set(.finished, progress: 1, url: try content(in: world))
        world.backend.updatedDownloads([download])
        await queue.retryNow()
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(world.fake.finished == ["1000000100"])
        await queue.stop()
    }

    @Test func aCancelledDownloadHaltsThePlanUnfinishedAndStartsOverOnRetry() async throws {
        let world = try StoreKit1World()
        let (queue, download) = try await purchaseTrackPack(world)
        world.backend.cancelDownloads(transactionID: "1000000100")
        #expect(world.fake.calls.withLock { $0.cancelled } == ["canyon-tracks"])
        try await waitUntil { await queue.pending().first?.status == .halted }
        let failure = try #require(await world.log.failures.first)
        #expect(!failure.failure.isTransient)
        #expect(failure.failure.reason.contains("cancelled"))
        #expect(world.fake.finished.isEmpty, "the user paid: the transaction stays unfinished")

        await queue.retryNow()
        try await waitUntil { world.fake.calls.withLock { $0.started.count } >= 2 }
        download.set(.finished, progress: 1, url: try content(in: world))
        world.backend.updatedDownloads([download])
        try await StoreKit1World.settle(queue, world.log) { $0.contains { $0.isRemoved } }
        #expect(world.fake.finished == ["1000000100"])
        await queue.stop()
    }

    @Test func aTransactionWithoutHostedContentHaltsAtTheDownloadSaysWhy() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: StoreKit1World.canyon), state: .purchased, id: "1000000101",
                                           date: StoreKit1World.now))
        try await waitUntil { await queue.pending().first?.status == .halted }
        let failure = try #require(await world.log.failures.first)
        #expect(!failure.failure.isTransient)
        #expect(failure.failure.reason.contains("no Apple-hosted content"))
        #expect(world.fake.finished.isEmpty)
        await queue.stop()
    }
}
