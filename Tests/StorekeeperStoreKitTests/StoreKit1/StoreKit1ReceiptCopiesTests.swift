import Foundation
import StorekeeperCore
import StorekeeperQueue
import StorekeeperRuntime
@testable import StorekeeperStoreKit
import Testing

/// StoreKit 1's app receipt lists every purchase, so it grows with each
/// (Apple's "Receipt Fields": one in-app purchase receipt per purchase,
/// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html).
/// The journal keeps what each transaction carries, so a copy of the receipt
/// in every transaction grows it with the square of the number of purchases.
@Suite struct StoreKit1ReceiptCopiesTests {
    typealias Receipt = TestAppReceipt

    /// The journal's files (the database and its write-ahead log), in bytes.
    static func journalSize(in folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])
            .filter { $0.lastPathComponent.hasPrefix("journal.sqlite") }
            .reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
    }

    @Test func twoHundredRenewalsGrowTheJournalWithTheirNumberNotItsSquare() async throws {
        // Sandbox renews a monthly subscription every five minutes: 200 renewals in an afternoon of testing.
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        let payment = StoreKit1Payment(productID: StoreKit1World.proMonthly)
        var purchases: [[UInt8]] = []
        var receiptBytes = 0
        for renewal in 0..<200 {
            let id = String(1_000_001_000 + renewal)
            let bought = StoreKit1World.now - Double(200 - renewal) * 300
            purchases.append(Receipt.purchase(product: StoreKit1World.proMonthly, transaction: id, bought: bought, expires: bought + 300))
            let receipt = Receipt.receipt(purchases)
            receiptBytes += receipt.count
            world.receipt.state.withLock { $0.bytes = receipt }
            world.fake.deliver(FakeSKTransaction(payment, state: .purchased, id: id, date: bought))
        }
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == 200 }
        await queue.stop()
        let journal = try Self.journalSize(in: world.folder)
        print("StoreKit1ReceiptCopiesTests: 200 renewals; the receipts they came with: \(receiptBytes) bytes in all; the journal: \(journal) bytes")
        #expect(journal < receiptBytes / 10, "the journal (\(journal) bytes) keeps no copy of each receipt (\(receiptBytes) bytes in all)")
    }

    @Test func aTransactionCarriesTheReceiptWhenAStepOfItsPlanMayReadIt() async throws {
        let world = try StoreKit1World()
        let queue = try await world.startQueue()
        // The season pass keeps a copy of the receipt in iCloud (`record: receipt`);
        // coins run the game's own `audit-log` step, which may read it; Remove Ads
        // (the receipt is its record) and Pro (the same) run built-in steps that never do.
        let products = [StoreKit1World.seasonPass, StoreKit1World.coins, StoreKit1World.noAds, StoreKit1World.proMonthly]
        for (index, productID) in products.enumerated() {
            world.fake.deliver(FakeSKTransaction(StoreKit1Payment(productID: productID), state: .purchased, id: "100000060\(index)",
                                                 date: StoreKit1World.now))
        }
        try await StoreKit1World.settle(queue, world.log) { $0.filter(\.isRemoved).count == products.count }
        let carried = Dictionary(uniqueKeysWithValues: await world.log.updated.map { ($0.info.productID, $0.info.receipt != nil) })
        #expect(carried == [StoreKit1World.seasonPass: true, StoreKit1World.coins: true, StoreKit1World.noAds: false,
                            StoreKit1World.proMonthly: false])
        #expect(await queue.entitlements().isUnlocked("season-events"), "the iCloud record was written from the receipt")
        await queue.stop()
    }
}
