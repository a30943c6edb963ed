import Foundation
import StorekeeperCore
import StorekeeperRuntime

/// What the engine delivered on this device, in memory: the mirror of the
/// journal's `owned`, `unlocked` and `balances` tables and of the periods its
/// `ownerships` keeps, loaded at start and changed only after the database
/// transaction that changed the tables commits.
struct EntitlementLedger: Sendable, Hashable {
    /// A product owned: by which transaction, since when, until when.
    struct Ownership: Sendable, Hashable {
        var transactionID: String
        var purchaseDate: Date
        var expirationDate: Date?

        /// Whichever lasts longer (no end outlasts any end).
        func merged(with other: Ownership) -> Ownership {
            switch (expirationDate, other.expirationDate) {
            case (nil, _): self
            case (_, nil): other
            case let (mine?, theirs?): theirs > mine ? other : self
            }
        }

        /// Whether this one stays the owner when `other` delivers the same product: it lasts as long or
        /// longer (the journal's `owned` upsert then changes nothing, and is not run).
        func outlasts(_ other: Ownership) -> Bool {
            switch (expirationDate, other.expirationDate) {
            case (nil, _): true
            case (_, nil): false
            case let (mine?, theirs?): theirs <= mine
            }
        }
    }

    var owned: [String: Ownership] = [:]
    var unlocked: [String: Set<String>] = [:]
    var balances: [String: Int] = [:]
    /// Transactions that granted something here: a record kept elsewhere of
    /// one of them adds nothing more.
    var granted: Set<String> = []
    /// The auto-renewable periods delivered, by subscription (`originalTransactionId`): a period
    /// that is its subscription's only one supersedes nothing and is superseded by nothing, so
    /// dispatching it asks the database nothing about the others.
    var periods: [String: Set<String>] = [:]

    mutating func own(_ product: String, _ ownership: Ownership) {
        owned[product] = owned[product].map { $0.merged(with: ownership) } ?? ownership
    }

    /// Whether `subscription` has a period other than `transactionID`.
    func hasPeriod(of subscription: String, otherThan transactionID: String) -> Bool {
        periods[subscription]?.contains { $0 != transactionID } ?? false
    }

    mutating func unlock(_ feature: String, by product: String) {
        unlocked[feature, default: []].insert(product)
    }

    mutating func grant(_ balance: String, _ amount: Int, transaction: String? = nil) {
        balances[balance, default: 0] &+= amount
        if let transaction { granted.insert(transaction) }
    }

    /// The entitlements now: what this device delivered, and what records
    /// kept elsewhere (another device, the server, the receipt) say the user
    /// owns.
    ///
    /// `balances` are the balances shown, overdrafts and unconfirmed
    /// balances (a ``BalanceBook``'s); without them, the sums of this
    /// device's grants.
    func entitlements(policy: CompiledPolicy, elsewhere: [String: Ownership], now: Date,
                      balances: BalanceBook.Shown? = nil) -> Entitlements {
        var ownership = owned
        for (product, record) in elsewhere {
            ownership[product] = ownership[product].map { $0.merged(with: record) } ?? record
        }
        var ownedNow = Set<String>()
        var subscriptions: [ActiveSubscription] = []
        var features = Set<String>()
        for (productID, record) in ownership {
            if let end = record.expirationDate, end <= now { continue }
            ownedNow.insert(productID)
            guard let handle = policy.product(id: productID) else { continue }
            let product = policy.product(handle)
            if product.type == .autoRenewableSubscription || product.type == .nonRenewingSubscription {
                subscriptions.append(ActiveSubscription(productID: productID, expirationDate: record.expirationDate))
            }
            // A product owned through a record kept elsewhere unlocks what its policy unlocks.
            if elsewhere[productID] != nil { features.formUnion(product.unlocks) }
        }
        for (feature, products) in unlocked where !features.contains(feature) {
            // A feature stays unlocked while one of the products that unlocked it is owned
            // (consumables are never owned: what they unlock stays unlocked).
            if products.contains(where: { ownedNow.contains($0) || isConsumable($0, in: policy) }) {
                features.insert(feature)
            }
        }
        return Entitlements(features: features, balances: balances?.balances ?? self.balances, activeSubscriptions: subscriptions,
                            ownedProducts: ownedNow, overdrawn: balances?.overdrawn ?? [:], unconfirmed: balances?.unconfirmed ?? [:])
    }

    private func isConsumable(_ productID: String, in policy: CompiledPolicy) -> Bool {
        guard let handle = policy.product(id: productID) else { return false }
        return policy.product(handle).type == .consumable
    }
}
