public import StorekeeperCore

/// A subscription offer the catalog declares for a product (its `offers`):
/// what a payment may name, so that the queue can refuse an offer the
/// catalog does not declare before the store is asked.
public struct OfferPolicy: Sendable, Hashable {
    /// Promotional, offer code or win-back.
    public var kind: OfferKind
    /// The offer identifier App Store Connect and the app use.
    public var id: String

    /// Describes a declared offer.
    package init(kind: OfferKind, id: String) {
        self.kind = kind
        self.id = id
    }
}
