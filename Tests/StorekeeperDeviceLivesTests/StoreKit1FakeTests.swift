import Foundation
import StorekeeperCore
@testable import StorekeeperDeviceLives
import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperStoreKit
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// The model-driven StoreKit 1's rules, each against the Apple page it comes from, seen through the real
/// StoreKit 1 backend and queue.
@Suite struct StoreKit1FakeTests {
    typealias Harness = StoreKit1FakeHarness

    @Test func theDeviceCatalogCompilesWithTheModelsProducts() throws {
        let policy = try Harness.policy.get()
        #expect(policy.products.map(\.id).sorted() == [
            StoreModelCatalog.coins, StoreModelCatalog.plusMonthly, StoreModelCatalog.plusYearly, StoreModelCatalog.premiumMonthly,
            StoreModelCatalog.premiumYearly, StoreModelCatalog.pro, StoreModelCatalog.seasonPass, StoreModelCatalog.theme,
        ].sorted())
    }

    /// Receipt Fields: each purchase is attribute 17 with 1701…1712; the backend's reader must read back
    /// what the fake writes, long lengths and large integers included.
    /// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
    @Test func theReceiptReadsBackAsWritten() throws {
        let bought = Date(timeIntervalSince1970: 1_768_003_200.123)
        let lines = (0..<40).map { index in
            StoreKit1ReceiptLine(quantity: 300 + index, productID: "com.example.product.\(index)", transactionID: String(2_000_000_000_000_000 + index),
                                 originalTransactionID: "2000000000000000", purchaseDate: bought, originalPurchaseDate: bought,
                                 expiresDate: index.isMultiple(of: 2) ? bought.addingTimeInterval(86_400) : nil,
                                 webOrderLineItemID: 9_000_000_000_000 + index, cancellationDate: index == 3 ? bought.addingTimeInterval(60) : nil)
        }
        let payload = try AppReceiptPayload(receipt: StoreKit1ReceiptEncoder.receipt(bundleID: "com.example.app", created: bought, lines: lines))
        #expect(payload.entries.count == 39)
        #expect(payload.cancellations.map(\.transactionID) == ["2000000000000003"])
        let first = try #require(payload.entry(transactionID: "2000000000000000"))
        #expect(first.productID == "com.example.product.0")
        #expect(abs(first.purchaseDate.timeIntervalSince(bought)) < 0.001)
        #expect(abs((first.expirationDate ?? .distantPast).timeIntervalSince(bought.addingTimeInterval(86_400))) < 0.001)
        #expect(payload.entry(transactionID: "2000000000000001")?.expirationDate == nil)
        #expect(payload.originalTransactionIDs["2000000000000039"] == "2000000000000000")
    }

    /// SKPaymentTransactionState: a payment is purchasing, then purchased with the App Store's identifier,
    /// which is the receipt's transaction_id (the model's transaction id).
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier
    @Test func aPaymentIsAnsweredWithTheModelsTransaction() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        let messages = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.pro)))
        let bought = try #require(messages.compactMap { if case .transaction(let t) = $0 { t.payload } else { nil } }.first)
        let device = try harness.device("ann")
        let states = await device.log.updated.map(\.info.state)
        #expect(states == [.purchasing, .purchased])
        #expect(await device.log.updated.last?.info.id == bought.transactionID)
        #expect(device.storeKit.finished.map(\.modelID) == [bought.transactionID])
        #expect(try await harness.entitlements("ann").owns(StoreModelCatalog.pro))
    }

    /// A renewal is a new transaction the observer gets while the app runs (background renewals), and at the
    /// next launch when it was not running: "If an application quits when transactions are still being
    /// processed, those transactions are not lost. The next time the application launches, the payment queue
    /// resumes processing the transactions."
    /// https://developer.apple.com/documentation/storekit/setting-up-the-transaction-observer-for-the-payment-queue
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-5ciz2
    @Test func renewalsAreNewTransactionsDeliveredWhenTheAppRuns() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.plusMonthly)))
        let renewed = try await harness.advance(days: 35).compactMap { if case .transaction(let t) = $0 { t.payload } else { nil } }
        let renewal = try #require(renewed.first { $0.reason == .renewal })
        let device = try harness.device("ann")
        #expect(await device.log.updated.contains { $0.info.id == renewal.transactionID && $0.info.state == .purchased })
        let active = try await harness.entitlements("ann").activeSubscriptions
        #expect(active.map { $0.expirationDate?.timeIntervalSince1970.rounded() } == [renewal.expiresDate?.timeIntervalSince1970.rounded()])

        try await harness.quit("ann")
        let next = try await harness.advance(days: 31).compactMap { if case .transaction(let t) = $0 { t.payload } else { nil } }
        let offRenewal = try #require(next.first { $0.reason == .renewal })
        #expect(device.storeKit.unfinishedModelIDs == [offRenewal.transactionID], "StoreKit holds it until the app runs")
        let receipt = try AppReceiptPayload(receipt: try #require(device.storeKit.receiptOnDevice()))
        #expect(receipt.entry(transactionID: offRenewal.transactionID) != nil, "the receipt lists it when the app is told of it")
        try await harness.launch("ann")
        #expect(await device.log.updated.contains { $0.info.id == offRenewal.transactionID })
        #expect(device.storeKit.unfinishedModelIDs.isEmpty)
        #expect(try await harness.entitlements("ann").owns(StoreModelCatalog.plusMonthly))
    }

    /// restoreCompletedTransactions(): completed purchases come back `restored`, each naming the purchase in
    /// `original`; it "has no effect" on "items that are not restorable, such as a non-renewing subscription
    /// or a consumable product"; then the observer hears the restore finished.
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/original
    @Test func restoresGiveBackNonConsumablesAndSubscriptionsOnly() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        var bought: [String: String] = [:]
        for product in [StoreModelCatalog.coins, StoreModelCatalog.pro, StoreModelCatalog.seasonPass, StoreModelCatalog.plusMonthly] {
            let messages = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: product)))
            for case .transaction(let t) in messages { bought[t.payload.productID] = t.payload.transactionID }
        }
        let device = try harness.device("ann")
        await device.queue?.restoreCompletedTransactions()
        try await harness.settle()
        let restored = await device.log.updated.filter { $0.info.state == .restored }
        #expect(Set(restored.map(\.info.productID)) == [StoreModelCatalog.pro, StoreModelCatalog.plusMonthly])
        #expect(Set(restored.compactMap(\.originalID)) == [bought[StoreModelCatalog.pro], bought[StoreModelCatalog.plusMonthly]])
        #expect(await device.log.restoreFinished)
        // Each restore is a new StoreKit transaction, mapped back to the model's purchase.
        let restoreIDs = device.storeKit.finished.compactMap(\.modelID).suffix(2)
        #expect(Set(restoreIDs) == [bought[StoreModelCatalog.pro], bought[StoreModelCatalog.plusMonthly]])
    }

    /// A consumable "is kept in the receipt until your app finishes that transaction"; non-consumables and
    /// subscriptions "remain in the receipt indefinitely", each period with its expires_date.
    /// https://developer.apple.com/documentation/appstorereceipts/responsebody/receipt/in_app
    @Test func aFinishedConsumableLeavesTheReceiptTheNextTimeItIsWritten() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        let coins = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.coins, quantity: 3)))
        let coinsID = try #require(coins.compactMap { if case .transaction(let t) = $0 { t.payload.transactionID } else { nil } }.first)
        let device = try harness.device("ann")
        let written = try AppReceiptPayload(receipt: try #require(device.storeKit.receiptOnDevice()))
        #expect(written.entry(transactionID: coinsID) != nil, "written as the purchase completed, before the app finished it")
        #expect(try await harness.entitlements("ann").balance(StoreModelCatalog.coinsBalance) == 300)
        let plus = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.plusMonthly)))
        let plusPayload = try #require(plus.compactMap { if case .transaction(let t) = $0 { t.payload } else { nil } }.first)
        let next = try AppReceiptPayload(receipt: try #require(device.storeKit.receiptOnDevice()))
        #expect(next.entry(transactionID: coinsID) == nil)
        let entry = try #require(next.entry(transactionID: plusPayload.transactionID))
        #expect(abs((entry.expirationDate ?? .distantPast).timeIntervalSince(plusPayload.expiresDate ?? .distantFuture)) < 0.001)
    }

    /// A refund puts nothing on the payment queue (StoreKit 1 has no refund event); the receipt shows the
    /// purchase's cancellation_date once StoreKit writes the receipt again (a refresh), and "a canceled
    /// in-app purchase remains in the receipt indefinitely". A consumable's refund never shows.
    /// https://developer.apple.com/documentation/appstorereceipts/cancellation_date_ms
    @Test func aRefundShowsOnlyInTheReceiptOnceItIsWritten() async throws {
        let harness = try Harness()
        try await harness.launch("ann")
        let bought = try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.pro)))
        let id = try #require(bought.compactMap { if case .transaction(let t) = $0 { t.payload.transactionID } else { nil } }.first)
        let device = try harness.device("ann")
        let before = await device.log.events.count
        try await harness.perform(.refund(transactionID: id, percentage: nil))
        #expect(await device.log.updated.count == 2, "no transaction for a refund")
        #expect(try AppReceiptPayload(receipt: try #require(device.storeKit.receiptOnDevice())).cancellations.isEmpty)
        #expect(try await harness.entitlements("ann").owns(StoreModelCatalog.pro), "the device cannot know yet")
        #expect(await device.log.events.count >= before)

        try await device.backend?.refreshReceipt()
        await device.queue?.refreshEntitlements()
        try await harness.settle()
        let refreshed = try AppReceiptPayload(receipt: try #require(device.storeKit.receiptOnDevice()))
        #expect(refreshed.cancellations.map(\.transactionID) == [id])
        #expect(try await !harness.entitlements("ann").owns(StoreModelCatalog.pro))
    }

    /// Family Sharing: "each family member gets their own unique receipts and transactions" (the member's
    /// copy is a purchased transaction on the member's queue), and when the App Store "revokes in-app
    /// purchases for a family member based on changes in Family Sharing" StoreKit calls
    /// paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:).
    /// https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)
    @Test func aFamilyMembersCopyArrivesAndIsRevoked() async throws {
        let harness = try Harness(people: ["ann", "bob"])
        try await harness.launch("ann")
        try await harness.launch("bob")
        try await harness.perform(.joinFamily(appleID: "bob", organizer: "ann"))
        try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.pro)))
        let bob = try harness.device("bob")
        #expect(await bob.log.updated.map(\.info.productID) == [StoreModelCatalog.pro])
        #expect(try await harness.entitlements("bob").owns(StoreModelCatalog.pro))
        try await harness.perform(.leaveFamily(appleID: "bob"))
        #expect(bob.storeKit.statistics.revocations == 1)
        #expect(try await !harness.entitlements("bob").owns(StoreModelCatalog.pro))
        #expect(try await harness.entitlements("ann").owns(StoreModelCatalog.pro))
    }

    /// An app that crashes as StoreKit finishes a transaction keeps what its plan committed: the transaction
    /// is finished (StoreKit will not deliver it again), so the journal must hold the purchase already.
    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)
    @Test func aCrashAtFinishKeepsWhatThePlanCommitted() async throws {
        let harness = try Harness(faults: StoreKit1Faults(duplicate: 0, reorder: 0, afterFinish: 0, crashAtFinish: 1))
        try await harness.launch("ann")
        try await harness.perform(.buy(Purchase(appleID: "ann", account: "ann", productID: StoreModelCatalog.coins, quantity: 2)))
        let device = try harness.device("ann")
        #expect(device.storeKit.statistics.crashes == 1)
        #expect(!device.storeKit.isRunning)
        try await harness.quit("ann")
        try await harness.launch("ann")
        #expect(try await harness.entitlements("ann").balance(StoreModelCatalog.coinsBalance) == 200)
    }
}
