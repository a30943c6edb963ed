import StorekeeperCatalog
import StorekeeperCore

/// The default plan of a catalog product: its shape read from the catalog.
extension DefaultPlan {
    /// The default steps for a product in a situation.
    public static func steps(for product: Product, in situation: PlanSituation) -> [BuiltInStep] {
        steps(for: Shape(product), in: situation)
    }

    /// Server delivery and server records start by validating the receipt.
    public static func needsReceiptVerification(_ product: Product) -> Bool {
        product.delivery.model.value == .server || product.persistence.strategy.value == .server
    }

    /// Content that is not in the bundle is downloaded.
    public static func downloads(_ product: Product) -> Bool {
        guard let source = product.delivery.content?.source.value else { return false }
        return source != .bundle
    }

    /// `unlock` for features (and, for every product that is kept, the
    /// product itself), `grant` for balances.
    public static func deliveries(_ product: Product) -> [BuiltInStep] {
        var steps: [BuiltInStep] = []
        if !product.delivery.unlocks.isEmpty || product.type.value != .consumable { steps.append(.unlock) }
        if !product.delivery.grants.isEmpty { steps.append(.grant) }
        return steps
    }
}

extension DefaultPlan.Shape {
    /// The shape of a product.
    public init(_ product: Product) {
        self.init(
            isConsumable: product.type.value == .consumable,
            verifiesReceipt: DefaultPlan.needsReceiptVerification(product),
            downloads: DefaultPlan.downloads(product),
            hostedContent: product.delivery.content?.source.value == .appleHosted,
            receiptIsRecord: product.persistence.strategy.value == .receipt,
            deliveries: DefaultPlan.deliveries(product))
    }
}
