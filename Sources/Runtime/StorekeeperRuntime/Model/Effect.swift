public import StorekeeperCore

/// What a step asks the engine to do. Steps append effects to an
/// ``EffectBuffer`` rather than performing them, so that the transaction
/// queue can write each step's effects in the same database transaction as
/// the journal entry that marks the step done: a step's effects are applied
/// once, or not at all.
public enum Effect: Sendable, Hashable {
    /// The purchase of a product that is kept (non-consumable, subscription) is delivered.
    case own(product: String)
    /// A feature is unlocked.
    case unlock(feature: String)
    /// An amount is added to a balance.
    case grant(balance: String, amount: Int)
    /// A record of the purchase is kept where the product's persistence strategy says.
    case record(PersistenceRecord)
    /// Content is available at a location.
    case content(ContentLocation)
    /// The receipt was verified.
    case receiptVerified(product: String)
    /// The interface is told of the transaction's state.
    case notify(TransactionState)
    /// The store's error is shown to the user.
    case presentError(StoreErrorCode)
    /// The transaction is finished: the store does not deliver it again.
    case finish
    /// A plugin's own effect, by step name, with a detail of its choosing.
    case custom(step: String, detail: String)
}

/// A record of a purchase, for a persistence strategy to keep.
public struct PersistenceRecord: Sendable, Hashable {
    /// The strategy that keeps it.
    public var strategy: PersistenceStrategy
    /// The key: the product identifier.
    public var key: String
    /// What is kept.
    public var value: Value

    /// Creates a record.
    package init(strategy: PersistenceStrategy, key: String, value: Value) {
        self.strategy = strategy
        self.key = key
        self.value = value
    }

    /// What a record holds.
    public enum Value: Sendable, Hashable {
        /// A flag: the product was bought.
        case flag
        /// A copy of the transaction's receipt (resists tampering).
        case receipt([UInt8])
        /// The transaction, for a server to keep against the user's account.
        case transaction(id: String, quantity: Int)
    }
}

/// Where a product's content is, once available.
public struct ContentLocation: Sendable, Hashable {
    /// Where it came from.
    public var source: ContentSource
    /// Its path: inside the bundle, or where it was downloaded to.
    public var path: String
    /// Cache or documents, for downloaded content.
    public var storage: ContentStorage?

    /// Creates a location.
    package init(source: ContentSource, path: String, storage: ContentStorage? = nil) {
        self.source = source
        self.path = path
        self.storage = storage
    }
}
