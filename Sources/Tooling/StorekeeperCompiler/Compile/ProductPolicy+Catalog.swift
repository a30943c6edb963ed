public import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
public import StorekeeperRuntime

extension ProductPolicy {
    /// The policy of a catalog product, defaults applied.
    public init(_ product: Product) {
        self.init(
            id: product.id.value, type: product.type.value, delivery: product.delivery.model.value,
            unlocks: product.delivery.unlocks.map(\.value),
            grants: product.delivery.grants.map { GrantPolicy(balance: $0.balance.value, amount: $0.amount.value) },
            content: product.delivery.content.map {
                ContentPolicy(source: $0.source.value, path: $0.path?.value, size: $0.size?.value.bytes, storage: $0.storage?.value)
            },
            persistence: product.persistence.strategy.value, record: product.persistence.effectiveRecord,
            restore: product.restore.policy.value, restoreTrigger: product.restore.effectiveTrigger,
            restoreSelection: product.restore.effectiveSelection, maxQuantity: product.quantityLimit,
            familyShareable: product.isFamilyShareable,
            subscription: product.subscription.map {
                SubscriptionPolicy(group: $0.group.value, level: $0.effectiveLevel, period: $0.period.value)
            },
            duration: product.duration.map { $0.value.description },
            offers: product.subscription?.offers.map { OfferPolicy(kind: $0.kind.value, id: $0.id.value) } ?? [])
    }
}
