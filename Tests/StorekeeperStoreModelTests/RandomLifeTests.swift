import Foundation
import StorekeeperCore
import StorekeeperRuntime
import StorekeeperStoreModel
import StorekeeperTestChain
import Testing

/// Random lives through the model alone: whatever the actions, it refuses with a `StoreModelError` or answers
/// messages signed at its clock, with `data.status` and renewal info exactly for auto-renewable subscriptions, and
/// entitlements of the documented shape. Replay one with STOREKEEPER_STORE_MODEL_SEED=<seed> (and
/// STOREKEEPER_STORE_MODEL_LIVES=<count>).
@Suite struct RandomLifeTests {
    static let appleIDs = ["ann", "bob", "cat"]
    static let accounts = ["u1", "u2", "u3"]

    @Test func livesKeepTheModelsPromises() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["STOREKEEPER_STORE_MODEL_SEED"].flatMap { UInt64($0) } ?? 24
        let lives = environment["STOREKEEPER_STORE_MODEL_LIVES"].flatMap { Int($0) } ?? 60
        print("store model random lives: seed \(seed), \(lives) lives")
        let started = Date()
        var messages = 0
        for life in 0..<lives {
            let lifeSeed = SplitMix64.mix(seed &+ UInt64(life))
            messages += try Self.live(seed: lifeSeed)
        }
        print("store model random lives: \(lives) lives, \(messages) messages in \(Date().timeIntervalSince(started)) s")
    }

    /// One life of 60 steps; answers how many messages it produced.
    static func live(seed: UInt64) throws -> Int {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[random.next(below: items.count)] }
        let graces: [Int?] = [nil, 3, 16, 28]
        var model = try ModelFixture.model(gracePeriodDays: graces[Int(random.next(below: 4))])
        let policy = try ModelFixture.policy.get()
        let products = policy.products.map(\.id).sorted()
        var count = 0
        var lastSigned = Date.distantPast
        var ledger = MessageLedger(policy: policy, accounts: accounts + appleIDs)
        // The same, receiving each step's messages in reverse order: signedDates and statuses, not arrival, decide.
        var reversedLedger = ledger
        for step in 0..<60 {
            let appleID = pick(appleIDs) ?? "ann"
            let subscriptions = model.world.subscriptions.values.filter { $0.sharedFrom == nil }.map(\.originalTransactionID).sorted()
            let transactions = model.world.transactions.keys.sorted()
            var action: StoreAction?
            switch random.next(below: 16) {
            case 0, 1, 2:
                if let product = pick(products) {
                    let offer: Offer? = random.next(below: 4) == 0 ? Offer(kind: .introductory, discountType: .freeTrial, period: "P1W") : nil
                    action = .buy(Purchase(appleID: appleID, account: pick(accounts) ?? "u1", productID: product,
                                           quantity: product == StoreModelCatalog.coins ? 1 + Int(random.next(below: 3)) : 1,
                                           setsAppAccountToken: random.next(below: 2) == 0, offer: offer))
                }
            case 3: action = .spend(account: pick(accounts) ?? "u1", balance: StoreModelCatalog.coinsBalance, amount: 1 + Int(random.next(below: 150)))
            case 4: action = pick(subscriptions).map { .setAutoRenew(appleID: model.world.subscriptions[$0]?.appleID ?? appleID, originalTransactionID: $0, on: random.next(below: 2) == 0) }
            case 5: action = random.next(below: 2) == 0 ? .billingFails(appleID: appleID) : .billingRecovers(appleID: appleID)
            case 6:
                if let id = pick(subscriptions), let product = pick(products) {
                    action = .changeSubscription(appleID: model.world.subscriptions[id]?.appleID ?? appleID, originalTransactionID: id, to: product)
                }
            case 7: action = pick(transactions).map { .refund(transactionID: $0, percentage: random.next(below: 2) == 0 ? nil : 1 + Int(random.next(below: 100_000))) }
            case 8: action = pick(transactions).map { random.next(below: 2) == 0 ? .declineRefund(transactionID: $0) : .reverseRefund(transactionID: $0) }
            case 9: action = pick(transactions).map { .requestConsumption(transactionID: $0) }
            case 10: action = random.next(below: 2) == 0 ? .joinFamily(appleID: appleID, organizer: pick(appleIDs) ?? "ann") : .leaveFamily(appleID: appleID)
            case 11: action = pick(subscriptions).map { .extendRenewal(originalTransactionID: $0, days: 1 + Int(random.next(below: 100))) }
            case 12:
                if random.next(below: 2) == 0 {
                    action = pick(products).map { .priceIncrease(productID: $0) }
                } else if let id = pick(subscriptions) {
                    action = .consentToPriceIncrease(appleID: model.world.subscriptions[id]?.appleID ?? appleID, originalTransactionID: id)
                }
            case 13: action = .signIn(appleID: appleID, account: pick(accounts) ?? "u1")
            default: break
            }
            var messages: [StoreMessage] = []
            if case let .spend(account, balance, amount)? = action, model.canSpend(account: account, balance: balance, amount: amount) {
                ledger.spent[account, default: [:]][balance, default: 0] += amount
                reversedLedger.spent[account, default: [:]][balance, default: 0] += amount
            }
            do {
                if let action {
                    messages = try model.perform(action)
                } else {
                    let seconds = Double(random.next(below: 40 * 86_400))
                    messages = try model.advance(to: model.now.addingTimeInterval(seconds))
                }
            } catch {
                continue  // refused: a StoreModelError, by the type of `perform`
            }
            count += messages.count
            // Every message is signed after the one before: "the newest signed" never ties.
            for message in messages {
                let signed: Date
                switch message {
                case .notification(let notification): signed = notification.payload.signedDate
                case .transaction(let transaction): signed = transaction.payload.signedDate
                }
                #expect(signed > lastSigned, "seed \(seed), step \(step)")
                lastSigned = signed
            }
            try check(messages, model: model, policyFeatures: Set(policy.features), seed: seed, step: step)
            // A server receiving every message once, in order, agrees with the model.
            for message in messages { ledger.receive(message) }
            for message in messages.reversed() { reversedLedger.receive(message) }
            for account in accounts + appleIDs {
                let fromMessages = ledger.entitlements(of: account, at: model.now)
                let fromState = model.entitlements(of: account)
                #expect(fromMessages == fromState, "seed \(seed), step \(step), \(account):\n  messages \(fromMessages)\n  model    \(fromState)")
                let fromReversed = reversedLedger.entitlements(of: account, at: model.now)
                #expect(fromReversed == fromState, "seed \(seed), step \(step), \(account), reversed:\n  messages \(fromReversed)\n  model    \(fromState)")
            }
        }
        return count
    }

    static func check(_ messages: [StoreMessage], model: StoreModel, policyFeatures: Set<String>, seed: UInt64, step: Int) throws {
        let context = "seed \(seed), step \(step)"
        for notification in messages.notifications {
            let isSubscription = notification.transaction?.type == .autoRenewableSubscription
            #expect(notification.payload.signedDate <= model.now, "\(context)")
            #expect((notification.payload.status != nil) == isSubscription, "\(context): \(notification.payload.notificationType.rawValue)")
            #expect((notification.renewal != nil) == isSubscription, "\(context)")
            #expect(notification.payload.signedTransactionInfo != nil, "\(context)")
        }
        for transaction in messages.transactions {
            #expect(transaction.payload.signedDate <= model.now, "\(context)")
            #expect(model.world.transactions[transaction.payload.transactionID] != nil, "\(context)")
            #expect((transaction.payload.expiresDate != nil) == (transaction.payload.type == .autoRenewableSubscription), "\(context)")
        }
        for account in accounts + appleIDs {
            let entitlements = model.entitlements(of: account)
            #expect(entitlements.features == entitlements.features.sorted(), "\(context)")
            #expect(Set(entitlements.features).isSubset(of: policyFeatures), "\(context)")
            #expect(entitlements.balances.keys.sorted() == [StoreModelCatalog.coinsBalance], "\(context)")
            #expect(entitlements.balances.values.allSatisfy { $0 >= 0 } && entitlements.owed.values.allSatisfy { $0 > 0 }, "\(context)")
            for subscription in entitlements.subscriptions {
                switch subscription.status {
                case "active", "grace-period":
                    #expect(subscription.expirationDate > model.now.timeIntervalSince1970, "\(context)")
                    #expect(entitlements.products.contains(subscription.product), "\(context)")
                case "billing-retry":
                    #expect(subscription.expirationDate <= model.now.timeIntervalSince1970, "\(context)")
                default:
                    Issue.record("\(context): status \(subscription.status)")
                }
            }
        }
    }
}
