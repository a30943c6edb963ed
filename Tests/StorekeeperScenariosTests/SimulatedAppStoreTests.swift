import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
@testable import StorekeeperQueue
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import Testing
import StorekeeperTestSupport

/// `SimulatedAppStore` and `SimulatedDevice` driven directly, as a queue
/// would drive them, against Rocket Racer's compiled catalog: what
/// docs/simulate.md ("The simulated store", "Buying", "Restoring and the
/// receipt", "Time and subscriptions", "Downloads") says the store does.
///
/// The store's events go to a real `StoreEventSink` over the queue's inbox
/// (internal to `StorekeeperQueue`, hence `@testable`), drained after each
/// call: every event a store call sends is in the inbox when the call returns.
@Suite struct SimulatedAppStoreTests {
    // Rocket Racer's products, one of each kind the store treats differently.
    static let coins = "com.example.rocketracer.coins.500"              // consumable
    static let car = "com.example.rocketracer.vehicle.rocketcar"        // non-consumable
    static let truck = "com.example.rocketracer.vehicle.hovertruck"     // non-consumable
    static let noAds = "com.example.rocketracer.noads"                  // non-consumable
    static let pro = "com.example.rocketracer.pro.monthly"              // auto-renewable, P1M
    static let pass = "com.example.rocketracer.seasonpass.spring"       // non-renewing, P3M
    static let canyon = "com.example.rocketracer.tracks.canyon"         // Apple-hosted, 45 MB, documents

    // MARK: Restoring

    @Test func restoringTwiceMakesTwoRestoredTransactionsOfEachCompletedNonConsumableAndAutoRenewable() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let car = try await phone.buyAndFinish(Self.car)
        let pro = try await phone.buyAndFinish(Self.pro)
        _ = try await phone.buyAndFinish(Self.coins)
        _ = try await phone.buyAndFinish(Self.pass)
        // Restores happen later than the purchases: their dates must still be the originals'.
        await account.store.advance(to: account.clock.now.addingTimeInterval(3600))
        _ = await phone.events()

        var seen = Set([car.id, pro.id])
        for round in 1...2 {
            await phone.device.restoreCompletedTransactions(applicationUsername: nil)
            let events = await phone.events()
            let restored = events.updates
            #expect(restored.map(\.info.productID) == [Self.car, Self.pro], "round \(round): \(events)")
            #expect(restored.allSatisfy { $0.info.state == .restored }, "round \(round)")
            #expect(restored.map(\.originalID) == [car.id, pro.id], "round \(round)")
            #expect(restored.map(\.purchaseDate) == [car.purchaseDate, pro.purchaseDate], "round \(round)")
            #expect(restored.first(where: { $0.info.productID == Self.pro })?.expirationDate == pro.expirationDate)
            for transaction in restored {
                #expect(!seen.contains(transaction.id), "round \(round): \(transaction.id) reuses an identifier")
                seen.insert(transaction.id)
            }
            #expect(events.last == .restoreFinished, "round \(round): \(events)")
        }
        #expect(seen.count == 6)
    }

    @Test func consumablesAndNonRenewingSubscriptionsAreNeverRestored() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        _ = try await phone.buyAndFinish(Self.coins, quantity: 3)
        _ = try await phone.buyAndFinish(Self.pass)
        let car = try await phone.buyAndFinish(Self.car)
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        let events = await phone.events()
        // The non-consumable shows the restore ran; the two others are left out.
        #expect(events.updates.map(\.info.productID) == [Self.car], "\(events)")
        #expect(events.updates.first?.originalID == car.id)
        #expect(events.last == .restoreFinished)

        // On another device too: the store keeps no consumable to restore.
        await account.store.disconnect("phone")
        let tablet = await account.launch("tablet")
        await tablet.device.restoreCompletedTransactions(applicationUsername: nil)
        #expect(await tablet.events().updates.map(\.info.productID) == [Self.car])
    }

    @Test func aPurchaseMadeWithAnApplicationUsernameIsRestoredOnlyWithThatName() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let kid = try await phone.buyAndFinish(Self.noAds, user: "kid-1")
        let parent = try await phone.buyAndFinish(Self.car, user: "parent-2")
        let anyone = try await phone.buyAndFinish(Self.truck)

        for (user, expected) in [("kid-1", [kid.id, anyone.id]), ("parent-2", [parent.id, anyone.id]), ("stranger", [anyone.id])] {
            await phone.device.restoreCompletedTransactions(applicationUsername: user)
            let restored = await phone.events().updates
            #expect(restored.map(\.originalID) == expected, "restore as \(user)")
            #expect(restored.allSatisfy { $0.info.state == .restored })
        }
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        #expect(await phone.events().updates.map(\.originalID) == [anyone.id], "restore with no name")
    }

    @Test func anUnfinishedPurchaseIsRestoredOnlyOnceFinished() async throws {
        // "`restore` replays every completed (finished) transaction of the account".
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let car = try await phone.buy(Self.car).last.unwrap()
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        let restored = await phone.events().updates
        #expect(restored.isEmpty, "restored before it was finished: \(restored.map(\.id))")
        try await phone.device.finish(transactionID: car.id)
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        #expect(await phone.events().updates.map(\.originalID) == [car.id])
    }

    // MARK: The receipt

    @Test func refreshingTheReceiptCreatesNoTransaction() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let car = try await phone.buyAndFinish(Self.car)
        await account.store.disconnect("phone")
        let tablet = await account.launch("tablet")
        _ = await tablet.events()
        let latest = await account.store.latestTransaction(of: Self.car)

        await account.store.refreshReceipt("tablet")
        #expect(await tablet.events().isEmpty)
        #expect(await account.store.unfinished(device: "tablet").isEmpty)
        #expect(await account.store.latestTransaction(of: Self.car) == latest)
        #expect(await tablet.device.receiptEntries().map(\.transactionID) == [car.id])
        let traced = account.recorder.recorded.compactMap { event -> String? in
            if case .store(let report) = event, report.device == "tablet" { report.id } else { nil }
        }
        #expect(traced.isEmpty, "the store reported transactions to the tablet: \(traced)")
    }

    @Test func theReceiptKeepsNonConsumablesAndSubscriptionsButDropsFinishedConsumablesAndNonRenewing() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        var ids: [String: String] = [:]
        for product in [Self.coins, Self.car, Self.pass, Self.pro] {
            ids[product] = try await phone.buy(product).last.unwrap().id
        }
        // Unfinished: every purchase is on the receipt.
        #expect(await account.store.receiptProducts(device: "phone") == [Self.coins, Self.car, Self.pass, Self.pro])
        for product in [Self.coins, Self.car, Self.pass, Self.pro] {
            try await phone.device.finish(transactionID: try #require(ids[product]))
        }
        #expect(await account.store.receiptProducts(device: "phone") == [Self.car, Self.pro])
        let entries = await phone.device.receiptEntries()
        #expect(entries.map(\.transactionID) == [ids[Self.car], ids[Self.pro]].compactMap { $0 })
        #expect(entries.last?.expirationDate != nil, "the subscription's entry has its expiration")

        // Refunded and revoked purchases leave it.
        try await account.store.refund(try #require(ids[Self.car]), reason: .refund)
        try await account.store.refund(try #require(ids[Self.pro]), reason: .familySharing)
        #expect(await account.store.receiptProducts(device: "phone").isEmpty)
        #expect(await phone.device.receiptEntries().isEmpty)
    }

    @Test func aNewDevicesReceiptIsEmptyUntilItRefreshes() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let car = try await phone.buyAndFinish(Self.car)
        let pro = try await phone.buyAndFinish(Self.pro)
        await account.store.disconnect("phone")
        let tablet = await account.launch("tablet")
        #expect(await tablet.device.receiptEntries().isEmpty)
        #expect(await account.store.receiptProducts(device: "tablet").isEmpty)
        await account.store.refreshReceipt("tablet")
        #expect(await tablet.device.receiptEntries().map(\.transactionID) == [car.id, pro.id])
        // The phone's copy was never empty.
        #expect(await account.store.receiptProducts(device: "phone") == [Self.car, Self.pro])
    }

    @Test func aRestoreOnANewDeviceAlsoFetchesTheReceipt() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        _ = try await phone.buyAndFinish(Self.car)
        await account.store.disconnect("phone")
        let tablet = await account.launch("tablet")
        await tablet.device.restoreCompletedTransactions(applicationUsername: nil)
        #expect(await account.store.receiptProducts(device: "tablet") == [Self.car])
    }

    // MARK: Buying

    @Test func buyingAnOwnedNonConsumableIsANewPurchasedTransactionNotCharged() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let first = try await phone.buyAndFinish(Self.car)
        let again = try await phone.buy(Self.car)
        #expect(again.map(\.info.state) == [.purchasing, .purchased])
        let second = try again.last.unwrap()
        #expect(second.id != first.id)
        #expect(second.originalID == first.id)
        #expect(first.originalID == nil)
        #expect(account.charged(first.id) == true)
        #expect(account.charged(second.id) == false)
        // A consumable bought twice is charged twice and refers to nothing.
        let coins1 = try await phone.buyAndFinish(Self.coins)
        let coins2 = try await phone.buyAndFinish(Self.coins)
        #expect(account.charged(coins1.id) == true && account.charged(coins2.id) == true)
        #expect(coins2.originalID == nil)
    }

    @Test func askToBuyApprovedMakesTheSameTransactionPurchased() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let asked = try await phone.buy(Self.noAds, outcome: .askToBuy)
        #expect(asked.map(\.info.state) == [.purchasing, .deferred])
        let id = try asked.last.unwrap().id
        #expect(await account.store.unfinished(device: "phone") == [id])
        try await account.store.approve(id)
        let approved = await phone.events().updates
        #expect(approved.map(\.id) == [id])
        #expect(approved.map(\.info.state) == [.purchased])
        #expect(account.charged(id) == true)
        // Only once: it is not waiting any more.
        await #expect(throws: SimulationError.self) { try await account.store.approve(id) }
    }

    @Test func askToBuyDeclinedFailsTheSameTransactionWithPaymentCancelled() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let id = try await phone.buy(Self.noAds, outcome: .askToBuy).last.unwrap().id
        try await account.store.decline(id)
        let declined = await phone.events().updates
        #expect(declined.map(\.id) == [id])
        #expect(declined.map(\.info.state) == [.failed])
        #expect(declined.map(\.info.error) == [.paymentCancelled])
        try await phone.device.finish(transactionID: id)
        #expect(await account.store.receiptProducts(device: "phone").isEmpty)
    }

    @Test func anAskToBuyRequestUnansweredFor24HoursIsGoneAndNotDeliveredAgain() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let asked = try await phone.buy(Self.noAds, outcome: .askToBuy).last.unwrap()
        let start = account.clock.now

        // Still waiting a minute before the day is over: delivered again at a launch.
        await account.store.advance(to: start.addingTimeInterval(24 * 3600 - 60))
        #expect(await account.store.unfinished(device: "phone") == [asked.id])
        await account.store.disconnect("phone")
        let relaunched = await account.launch("phone")
        #expect(await relaunched.events().updates.map(\.id) == [asked.id])

        await account.store.advance(to: start.addingTimeInterval(24 * 3600))
        #expect(await relaunched.events().isEmpty, "the app hears nothing of the expiry")
        #expect(await account.store.unfinished(device: "phone").isEmpty)
        await account.store.disconnect("phone")
        let later = await account.launch("phone")
        #expect(await later.events().isEmpty, "an expired request is not delivered again")
    }

    /// A parent may answer too late: that is an outcome a scenario scripts
    /// and checks, not an action that cannot run.
    @Test func anAnswerAfterTheRequestExpiredChangesNothingAndIsTraced() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let asked = try await phone.buy(Self.noAds, outcome: .askToBuy).last.unwrap()
        #expect(await account.store.askToBuyState(of: asked.id) == .waiting)
        await account.store.advance(to: account.clock.now.addingTimeInterval(25 * 3600))
        #expect(await account.store.askToBuyState(of: asked.id) == .expired)

        try await account.store.approve(asked.id)
        try await account.store.decline(asked.id)
        #expect(await phone.events().isEmpty, "the app hears nothing of a late answer")
        #expect(await account.store.askToBuyState(of: asked.id) == .expired)
        #expect(await account.store.unfinished(device: "phone").isEmpty)
        #expect(account.charged(asked.id) == nil, "never purchased")
        let notes = account.recorder.recorded.compactMap { event -> String? in
            if case .note(let text) = event, text.contains("too late") { text } else { nil }
        }
        #expect(notes == [
            "approve came too late: the Ask to Buy request \(asked.id) (\(Self.noAds)) expired unanswered at 2026-01-02T00:00:00Z and was deleted; nothing changes",
            "decline came too late: the Ask to Buy request \(asked.id) (\(Self.noAds)) expired unanswered at 2026-01-02T00:00:00Z and was deleted; nothing changes",
        ])
    }

    @Test func askToBuyStatesFollowTheAnswers() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let approved = try await phone.buy(Self.noAds, outcome: .askToBuy).last.unwrap().id
        let declined = try await phone.buy(Self.truck, outcome: .askToBuy).last.unwrap().id
        let plain = try await phone.buy(Self.coins).last.unwrap().id
        try await account.store.approve(approved)
        try await account.store.decline(declined)
        #expect(await account.store.askToBuyState(of: approved) == .approved)
        #expect(await account.store.askToBuyState(of: declined) == .declined)
        #expect(await account.store.askToBuyState(of: plain) == nil, "not bought with Ask to Buy")
        // Answering twice is a mistake in the scenario, not an outcome.
        await #expect(throws: SimulationError.self) { try await account.store.approve(approved) }
    }

    @Test func anInterruptedPurchaseFailsThenANewTransactionIsPurchasedOnceResolved() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let interrupted = try await phone.buy(Self.truck, outcome: .interrupted)
        #expect(interrupted.map(\.info.state) == [.purchasing, .failed])
        let failed = try interrupted.last.unwrap()
        #expect(failed.info.error == .paymentCancelled)
        try await phone.device.finish(transactionID: failed.id)

        try await account.store.resolve(failed.id)
        let resolved = await phone.events().updates
        #expect(resolved.count == 1, "\(resolved)")
        let purchased = try resolved.first.unwrap()
        #expect(purchased.info.state == .purchased)
        #expect(purchased.info.productID == Self.truck)
        #expect(purchased.id != failed.id)
        #expect(account.charged(purchased.id) == true)
        #expect(await account.store.unfinished(device: "phone") == [purchased.id])
        // Resolved once: a second resolve is an error.
        await #expect(throws: SimulationError.self) { try await account.store.resolve(failed.id) }
    }

    @Test func whileOfflineAPurchaseFailsWithANetworkErrorWhateverItsOutcome() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        await account.store.setOffline(true, device: "phone")
        let updates = try await phone.buy(Self.noAds, outcome: .askToBuy)
        #expect(updates.map(\.info.state) == [.purchasing, .failed])
        #expect(updates.last?.info.error == .networkError)
    }

    // MARK: Subscriptions

    @Test func anAutoRenewableSubscriptionRenewsOncePerPeriodPassedThenLapsesAfterCancelRenewal() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let start = account.clock.now
        let first = try await phone.buyAndFinish(Self.pro)
        #expect(first.purchaseDate == start)
        #expect(first.expirationDate == utc(start, months: 1))

        await account.store.advance(to: utc(start, months: 3))
        let renewals = await phone.events().updates
        #expect(renewals.count == 3, "\(renewals.map(\.id))")
        #expect(renewals.allSatisfy { $0.info.state == .purchased && $0.info.productID == Self.pro })
        #expect(renewals.allSatisfy { $0.originalID == first.id })
        #expect(Set(renewals.map(\.id)).count == 3 && !renewals.map(\.id).contains(first.id))
        #expect(renewals.map(\.purchaseDate) == [1, 2, 3].map { utc(start, months: $0) })
        #expect(renewals.map(\.expirationDate) == [2, 3, 4].map { utc(start, months: $0) })
        #expect(account.clock.now == utc(start, months: 3))
        for renewal in renewals { try await phone.device.finish(transactionID: renewal.id) }

        // Renewal off: the period bought (to month 4) runs out, nothing more comes.
        try await account.store.cancelRenewal(productID: Self.pro)
        await account.store.advance(to: utc(start, months: 8))
        #expect(await phone.events().isEmpty)
        #expect(await account.store.unfinished(device: "phone").isEmpty)
        // Lapsed: nothing left to cancel.
        await #expect(throws: SimulationError.self) { try await account.store.cancelRenewal(productID: Self.pro) }
    }

    @Test func renewalsWhileTheAppIsNotRunningWaitForTheNextLaunch() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let start = account.clock.now
        let first = try await phone.buyAndFinish(Self.pro)
        await account.store.disconnect("phone")
        await account.store.advance(to: utc(start, months: 2))
        let waiting = await account.store.unfinished(device: "phone")
        #expect(waiting.count == 2)
        let relaunched = await account.launch("phone")
        let delivered = await relaunched.events().updates
        #expect(delivered.map(\.id) == waiting)
        #expect(delivered.allSatisfy { $0.originalID == first.id })
    }

    // MARK: Delivery and finish

    @Test func unfinishedTransactionsAreDeliveredAgainAtConnectFinishedOnesNever() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let coins = try await phone.buy(Self.coins).last.unwrap()
        let car = try await phone.buyAndFinish(Self.car)
        let failed = try await phone.buy(Self.noAds, outcome: .fail(.paymentInvalid)).last.unwrap()
        #expect(await account.store.unfinished(device: "phone") == [coins.id, failed.id])

        await account.store.disconnect("phone")
        let second = await account.launch("phone")
        let redelivered = await second.events().updates
        #expect(redelivered.map(\.id) == [coins.id, failed.id])
        #expect(redelivered.map(\.info.state) == [.purchased, .failed])
        #expect(!redelivered.map(\.id).contains(car.id))

        try await second.device.finish(transactionID: coins.id)
        try await second.device.finish(transactionID: failed.id)
        // Finishing again does nothing (no error, no second `finished` in the trace).
        try await second.device.finish(transactionID: coins.id)
        #expect(account.finishedCount(coins.id) == 1)

        await account.store.disconnect("phone")
        let third = await account.launch("phone")
        #expect(await third.events().isEmpty)
        // Another device never gets the phone's transactions.
        let tablet = await account.launch("tablet")
        #expect(await tablet.events().isEmpty)
    }

    @Test func nothingReachesADisconnectedAppUntilItConnectsAgain() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let asked = try await phone.buy(Self.noAds, outcome: .askToBuy).last.unwrap()
        await account.store.disconnect("phone")
        try await account.store.approve(asked.id)
        #expect(await phone.events().isEmpty, "the old sink got an update after disconnect")
        let relaunched = await account.launch("phone")
        let delivered = await relaunched.events().updates
        #expect(delivered.map(\.id) == [asked.id])
        #expect(delivered.map(\.info.state) == [.purchased])
    }

    @Test func finishWhileOfflineThrowsATransientFailureAndTheTransactionStaysUnfinished() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let coins = try await phone.buy(Self.coins).last.unwrap()
        await account.store.setOffline(true, device: "phone")
        do {
            try await phone.device.finish(transactionID: coins.id)
            Issue.record("finish succeeded while offline")
        } catch {
            #expect(error.isTransient, "\(error)")
            #expect(error.reason.contains("offline"), "\(error)")
        }
        #expect(await account.store.unfinished(device: "phone") == [coins.id])
        #expect(account.finishedCount(coins.id) == 0)
        await account.store.setOffline(false, device: "phone")
        try await phone.device.finish(transactionID: coins.id)
        #expect(await account.store.unfinished(device: "phone").isEmpty)
    }

    @Test func aRefundReachesTheAppAsARevocationNamingEveryTransactionReferringToThePurchase() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let car = try await phone.buyAndFinish(Self.car)
        let again = try await phone.buyAndFinish(Self.car)
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        let restored = await phone.events().updates.map(\.id)
        #expect(restored.count == 2)
        try await account.store.refund(again.id, reason: .refund)
        let events = await phone.events()
        guard case .revoked(let revocation)? = events.first, events.count == 1 else {
            Issue.record("expected one revocation, got \(events)")
            return
        }
        #expect(revocation.productID == Self.car)
        #expect(revocation.reason == .refund)
        #expect(Set(revocation.transactionIDs) == Set([car.id, again.id] + restored))
        #expect(revocation.transactionIDs.first == car.id)
        // Refunded: never restored again.
        await phone.device.restoreCompletedTransactions(applicationUsername: nil)
        #expect(await phone.events().updates.isEmpty)
        await #expect(throws: SimulationError.self) { try await account.store.refund(car.id, reason: .refund) }
    }

    // MARK: Downloads

    @Test func aDownloadReportsProgressToOneHundredWithLessTimeLeftEachTime() async throws {
        let folder = try TemporaryFolder()
        // 1 MB/s: 45 MB take 45 s, so every step of 5% or more takes seconds off.
        let account = try StoreAccount(bytesPerSecond: 1_000_000, folder: folder.path)
        let phone = await account.launch("phone")
        let canyon = try await phone.buy(Self.canyon).last.unwrap()
        let path = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: account.storage(of: Self.canyon))
        #expect(path == "phone/Documents/StoreKit/\(Self.canyon)")

        let reports = account.downloads(of: canyon.id)
        let active = reports.filter { $0.state == .active }
        #expect(active.count >= 3, "\(reports)")
        #expect(active.first?.percent == 0)
        #expect(active.first?.secondsRemaining == 45)
        #expect(zip(active, active.dropFirst()).allSatisfy { $0.percent < $1.percent && ($0.secondsRemaining ?? 0) > ($1.secondsRemaining ?? 0) },
                "\(active.map { "\($0.percent)% \($0.secondsRemaining.map(String.init) ?? "-") s" })")
        #expect(reports.last?.state == .finished)
        #expect(reports.last?.percent == 100)
        #expect(reports.filter { $0.state == .finished }.count == 1)
        let record = try #require(await account.store.latestDownload(of: Self.canyon, device: "phone"))
        #expect(record.state == .finished && record.percent == 100 && record.storage == .documents && record.path == path)
    }

    @Test func aFaultAtNPercentLeavesTheDownloadFailedThereAndTheNextAttemptGoesOnFromN() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let canyon = try await phone.buy(Self.canyon).last.unwrap()
        await account.store.failNextDownload(DownloadFault(.outOfSpace, at: 40), device: "phone")
        do {
            _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
            Issue.record("the download did not fail")
        } catch {
            #expect(error.isTransient, "\(error)")
        }
        let failed = account.downloads(of: canyon.id)
        #expect(failed.last?.state == .failed)
        #expect(failed.last?.percent == 40)
        #expect(failed.last?.reason == "out-of-space")
        #expect(failed.allSatisfy { $0.percent <= 40 })
        let record = try #require(await account.store.latestDownload(of: Self.canyon, device: "phone"))
        #expect(record.state == .failed && record.percent == 40)

        // The fault was for one attempt: the next goes on from 40% to the end.
        _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
        let resumed = account.downloads(of: canyon.id).dropFirst(failed.count)
        #expect(resumed.first?.state == .active)
        #expect(resumed.first?.percent == 40, "the next attempt started at \(resumed.first?.percent ?? -1)%, not 40%")
        #expect(resumed.allSatisfy { $0.percent >= 40 })
        #expect(resumed.last?.state == .finished && resumed.last?.percent == 100)
    }

    @Test func downloadedContentIsWrittenUnderTheDeviceFolderWhereTheCatalogsStorageSays() async throws {
        let folder = try TemporaryFolder()
        // Rocket Racer's track packs go to documents; Daily Planet's September issue to the cache.
        let racer = try StoreAccount(folder: folder.path)
        let tablet = await racer.launch("tablet")
        let canyon = try await tablet.buy(Self.canyon).last.unwrap()
        #expect(racer.storage(of: Self.canyon) == .documents)
        let documents = try await tablet.device.download(productID: Self.canyon, transactionID: canyon.id, storage: racer.storage(of: Self.canyon))
        #expect(documents == "tablet/Documents/StoreKit/\(Self.canyon)")
        let written = try String(contentsOfFile: "\(folder.path)/\(documents)", encoding: .utf8)
        #expect(written.contains(Self.canyon) && written.contains(canyon.id))

        let issue = "com.example.dailyplanet.issue.2024.09"
        let planet = try StoreAccount(catalog: "daily-planet", folder: folder.path)
        let phone = await planet.launch("phone")
        let bought = try await phone.buy(issue).last.unwrap()
        #expect(planet.storage(of: issue) == .cache)
        let cache = try await phone.device.download(productID: issue, transactionID: bought.id, storage: planet.storage(of: issue))
        #expect(cache == "phone/Library/Caches/StoreKit/\(issue)")
        #expect(FileManager.default.fileExists(atPath: "\(folder.path)/\(cache)"))
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/phone/Documents/StoreKit/\(issue)"))
    }

    @Test func aFinishedTransactionsDownloadsAreGone() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let canyon = try await phone.buyAndFinish(Self.canyon)
        do {
            _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
            Issue.record("downloaded the content of a finished transaction")
        } catch {
            #expect(!error.isTransient, "\(error)")
        }
    }

    @Test func offlineOrPausedDownloadsWaitWhereTheyAre() async throws {
        let account = try StoreAccount()
        let phone = await account.launch("phone")
        let canyon = try await phone.buy(Self.canyon).last.unwrap()
        await account.store.pauseDownloads(device: "phone")
        await #expect(throws: StepFailure.self) {
            _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
        }
        #expect(await account.store.latestDownload(of: Self.canyon, device: "phone")?.state == .paused)
        await account.store.resumeDownloads(device: "phone")
        await account.store.setOffline(true, device: "phone")
        await #expect(throws: StepFailure.self) {
            _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
        }
        #expect(await account.store.latestDownload(of: Self.canyon, device: "phone")?.state == .failed)
        await account.store.setOffline(false, device: "phone")
        _ = try await phone.device.download(productID: Self.canyon, transactionID: canyon.id, storage: .documents)
        #expect(await account.store.latestDownload(of: Self.canyon, device: "phone")?.state == .finished)
    }

    // MARK: Determinism

    @Test func theSameSeedGivesTheSameTransactionIdsAnotherSeedOthers() async throws {
        func session(seed: UInt64) async throws -> (ids: [String], progress: [Int]) {
            let account = try StoreAccount(seed: seed)
            let phone = await account.launch("phone")
            var ids: [String] = []
            for product in [Self.coins, Self.car, Self.canyon] {
                let transaction = try await phone.buy(product).last.unwrap()
                ids.append(transaction.id)
            }
            _ = try await phone.device.download(productID: Self.canyon, transactionID: ids[2], storage: .documents)
            // Only completed (finished) purchases are restored.
            for id in ids { try await phone.device.finish(transactionID: id) }
            await phone.device.restoreCompletedTransactions(applicationUsername: nil)
            ids += await phone.events().updates.map(\.id)
            return (ids, account.downloads(of: ids[2]).map(\.percent))
        }
        let first = try await session(seed: 7)
        let again = try await session(seed: 7)
        let other = try await session(seed: 8)
        #expect(first.ids.count == 5)
        #expect(first.ids == again.ids)
        #expect(first.progress == again.progress)
        #expect(Set(first.ids).isDisjoint(with: other.ids), "seed 7: \(first.ids), seed 8: \(other.ids)")
        #expect(first.progress != other.progress, "the download's steps do not depend on the seed")
    }
}

// MARK: - Support

/// One account's simulated store, its clock and trace, over a compiled example catalog.
private struct StoreAccount {
    let policy: CompiledPolicy
    let clock = SimulationClock(start: Scenario.defaultStart)
    let recorder = TraceRecorder()
    let store: SimulatedAppStore

    init(catalog: String = "rocket-racer", seed: UInt64 = 1, bytesPerSecond: Int64 = 10_000_000, folder: String? = nil) throws {
        policy = try ScenarioParsing.policy(catalog)
        store = SimulatedAppStore(policy: policy, seed: seed, clock: clock, downloadBytesPerSecond: bytesPerSecond, folder: folder,
                                  recorder: recorder)
    }

    /// The app starts on a device: its queue connects with a fresh sink.
    func launch(_ device: String) async -> StoreApp {
        let app = StoreApp(device: store.device(device), store: store)
        await app.device.connect(StoreEventSink(inbox: app.inbox))
        return app
    }

    /// Whether the store charged the account for a transaction, as traced (nil: never reported as purchased).
    func charged(_ id: String) -> Bool? {
        recorder.recorded.lazy.compactMap { event -> Bool? in
            if case .store(let report) = event, report.id == id { report.charged } else { nil }
        }.first
    }

    /// How many times the store traced finishing a transaction.
    func finishedCount(_ id: String) -> Int {
        recorder.recorded.filter { $0 == .finished(transactionID: id) }.count
    }

    /// A transaction's download reports, in order.
    func downloads(of id: String) -> [DownloadReport] {
        recorder.recorded.compactMap { event -> DownloadReport? in
            if case .download(let report) = event, report.transactionID == id { report } else { nil }
        }
    }

    /// Where the catalog keeps a product's downloaded content.
    func storage(of productID: String) -> ContentStorage? {
        policy.product(id: productID).flatMap { policy.product($0).content?.storage }
    }
}

/// A device's app as the store sees it: the device backend and the inbox its sink fills.
private struct StoreApp: Sendable {
    let device: SimulatedDevice
    let store: SimulatedAppStore
    let inbox = Inbox()

    /// Every event the store sent since the last call.
    func events() async -> [StoreEvent] {
        var events: [StoreEvent] = []
        while !inbox.isIdle {
            for item in await inbox.take(limit: 10_000) {
                if case .store(let event) = item { events.append(event) }
            }
            _ = inbox.settle()
        }
        return events
    }

    /// A payment the store answers as told: the updates it sent (`purchasing` first).
    func buy(_ productID: String, quantity: Int = 1, user: String? = nil, outcome: Purchase.Outcome = .succeed,
             sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> [StoreTransaction] {
        _ = await events()
        await store.prepareOutcome(outcome, device: device.name)
        await device.add(Payment(productID: productID, quantity: quantity, applicationUsername: user))
        await store.processPayments(device: device.name)
        let updates = await events().updates
        #expect(updates.first?.info.state == .purchasing, "\(updates)", sourceLocation: sourceLocation)
        #expect(updates.allSatisfy { $0.info.productID == productID && $0.info.quantity == quantity && $0.info.applicationUsername == user },
                sourceLocation: sourceLocation)
        return updates
    }

    /// A purchase that goes through, finished as a plan would; its `purchased` transaction.
    func buyAndFinish(_ productID: String, quantity: Int = 1, user: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> StoreTransaction {
        let transaction = try await buy(productID, quantity: quantity, user: user, sourceLocation: sourceLocation).last.unwrap(sourceLocation)
        #expect(transaction.info.state == .purchased, sourceLocation: sourceLocation)
        try await device.finish(transactionID: transaction.id)
        return transaction
    }
}

/// A folder removed when the value goes.
private final class TemporaryFolder {
    let path: String
    init() throws {
        path = try ScratchFolder.create(prefix: "storekeeper-store-tests").path
    }
    deinit { ScratchFolder.remove(URL(fileURLWithPath: path)) }
}

private extension [StoreEvent] {
    /// The transactions among the events.
    var updates: [StoreTransaction] {
        compactMap { if case .updated(let transaction) = $0 { transaction } else { nil } }
    }
}

private extension Optional {
    /// The value, or a recorded failure.
    func unwrap(_ sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Wrapped {
        try #require(self, sourceLocation: sourceLocation)
    }
}

/// `months` calendar months after `date`, in UTC.
private func utc(_ date: Date, months: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar.date(byAdding: .month, value: months, to: date) ?? date
}
