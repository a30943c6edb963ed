public import Foundation
import StorekeeperCore
public import StorekeeperRuntime
import StorekeeperTestChain

/// A model of the App Store written from Apple's documentation (docs/store-model.md cites a page for every
/// rule): a clock, Apple IDs with app accounts, family groups and the products of a compiled policy. Actions
/// are what happens in the world; each answers what Apple sends because of it, signed by the test chain:
/// StoreKit 2 transactions for devices and App Store Server Notifications V2 for the server. It also answers
/// each app account's expected entitlements at any instant.
///
/// A value, deterministic: the same actions give the same payloads (ids and notification UUIDs come from
/// counters; only the ECDSA signatures differ between runs). Every message is signed at the clock; when several
/// happen at one instant, the clock moves on a millisecond between them, so `signedDate`s never tie.
public struct StoreModel: Sendable {
    /// The products, by id.
    let products: [String: ProductPolicy]
    /// Every balance the policy declares.
    let balances: [String]
    /// The configuration.
    public let configuration: Configuration
    /// The clock.
    public internal(set) var now: Date
    /// What the model knows.
    public internal(set) var world: StoreWorld
    /// The counters that make ids.
    var counters = Counters()

    /// A model of `policy`'s products at `configuration.start`.
    public init(policy: CompiledPolicy, configuration: Configuration) {
        var products: [String: ProductPolicy] = [:]
        for product in policy.products { products[product.id] = product }
        self.products = products
        balances = policy.balances
        self.configuration = configuration
        now = configuration.start
        world = StoreWorld()
    }

    /// One thing that happens in the world at `now`; answers what Apple sends because of it, in order.
    public mutating func perform(_ action: StoreAction) throws(StoreModelError) -> [StoreMessage] {
        // A refused action changes nothing: the model is a value, so it is put back as it was.
        let before = self
        do { return try apply(action) } catch {
            self = before
            throw error
        }
    }

    mutating func apply(_ action: StoreAction) throws(StoreModelError) -> [StoreMessage] {
        var outbox = Outbox()
        switch action {
        case .buy(let purchase): try buy(purchase, into: &outbox)
        case let .spend(account, balance, amount): try spend(account: account, balance: balance, amount: amount)
        case let .setAutoRenew(appleID, originalTransactionID, on):
            try setAutoRenew(appleID: appleID, originalTransactionID: originalTransactionID, on: on, into: &outbox)
        case .billingFails(let appleID): billingFails(appleID: appleID)
        case .billingRecovers(let appleID): try billingRecovers(appleID: appleID, into: &outbox)
        case let .changeSubscription(appleID, originalTransactionID, productID):
            try changeSubscription(appleID: appleID, originalTransactionID: originalTransactionID, to: productID, into: &outbox)
        case let .refund(transactionID, percentage): try refund(transactionID: transactionID, percentage: percentage, into: &outbox)
        case .declineRefund(let transactionID): try declineRefund(transactionID: transactionID, into: &outbox)
        case .reverseRefund(let transactionID): try reverseRefund(transactionID: transactionID, into: &outbox)
        case .requestConsumption(let transactionID): try requestConsumption(transactionID: transactionID, into: &outbox)
        case let .joinFamily(appleID, organizer): try joinFamily(appleID: appleID, organizer: organizer, into: &outbox)
        case .leaveFamily(let appleID): try leaveFamily(appleID: appleID, into: &outbox)
        case let .extendRenewal(originalTransactionID, days):
            try extendRenewal(originalTransactionID: originalTransactionID, days: days, into: &outbox)
        case .priceIncrease(let productID): try priceIncrease(productID: productID, into: &outbox)
        case let .consentToPriceIncrease(appleID, originalTransactionID):
            try consentToPriceIncrease(appleID: appleID, originalTransactionID: originalTransactionID, into: &outbox)
        case let .signIn(appleID, account): signIn(appleID: appleID, account: account)
        }
        return outbox.messages
    }

    /// The clock moves to `date` (not backwards); what the App Store does on its own meanwhile (renewals,
    /// failed renewals, grace period and billing retry ends, expiries, downgrades taking effect) happens in
    /// time order, each at its own instant; answers what Apple sends.
    public mutating func advance(to date: Date) throws(StoreModelError) -> [StoreMessage] {
        guard date >= now else {
            throw StoreModelError("the clock cannot go back: now is \(now.timeIntervalSince1970), asked \(date.timeIntervalSince1970)")
        }
        let before = self
        var outbox = Outbox()
        do {
            while let (instant, originalTransactionID) = nextScheduledEvent(notAfter: date) {
                // An event already due (a grace-period recovery whose new period ended before it) happens now.
                now = max(now, instant)
                try runScheduledEvent(of: originalTransactionID, into: &outbox)
            }
        } catch {
            self = before
            throw error
        }
        // Messages stamped a millisecond apart may have moved the clock past `date`.
        now = max(now, date)
        return outbox.messages
    }

    /// Whether a spend would be accepted now (net >= amount); `perform(.spend…)` records it only then.
    public func canSpend(account: String, balance: String, amount: Int) -> Bool {
        amount >= 0 && net(of: account)[balance, default: 0] >= amount
    }
}

/// The messages one action or one advance produces, in order.
struct Outbox {
    var messages: [StoreMessage] = []
}

/// The counters ids and notification UUIDs come from.
struct Counters: Sendable {
    var transaction = 0
    var webOrderLineItem = 0
    var notification = 0
    /// When the last message was signed.
    var lastSigned: Date?
}
