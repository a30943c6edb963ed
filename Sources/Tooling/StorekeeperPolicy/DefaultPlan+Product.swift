public import StorekeeperCatalog
public import StorekeeperCore
import StorekeeperDiagnostics

/// The default plan of a catalog product: its shape read from the catalog.
extension DefaultPlan {
    /// The default steps for a product in a situation.
    public static func steps(for product: Product, in situation: PlanSituation) -> [BuiltInStep] {
        steps(for: Shape(product), in: situation)
    }

    /// Content that is not in the bundle is downloaded.
    public static func downloads(_ product: Product) -> Bool {
        Shape(product).downloads
    }
}

extension DefaultPlan.Shape {
    /// The shape of a product, from its facts (the one derivation is in StorekeeperCore).
    public init(_ product: Product) {
        self.init(
            type: product.type.value, delivery: product.delivery.model.value, persistence: product.persistence.strategy.value,
            contentSource: product.delivery.content?.source.value, unlocksFeatures: !product.delivery.unlocks.isEmpty,
            grantsBalances: !product.delivery.grants.isEmpty)
    }
}
