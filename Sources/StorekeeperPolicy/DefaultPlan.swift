import StorekeeperCatalog

/// The guide's plan for each product and situation, before custom rules
/// (`../shared/spec/catalog-format.md`, "Transaction states and the default
/// policy").
public enum DefaultPlan {
    /// The default steps for a product in a situation.
    public static func steps(for product: Product, in situation: PlanSituation) -> [BuiltInStep] {
        steps(for: Shape(product), in: situation)
    }

    /// The default steps for every product of a shape in a situation.
    public static func steps(for shape: Shape, in situation: PlanSituation) -> [BuiltInStep] {
        switch situation.state {
        case .purchasing, .deferred:
            // Update the interface, then wait for the next state.
            return [.notify]
        case .purchased:
            var steps: [BuiltInStep] = []
            if shape.verifiesReceipt { steps.append(.verifyReceipt) }
            if shape.downloads { steps.append(.download) }
            steps.append(.persist)
            steps.append(contentsOf: shape.deliveries)
            steps += [.notify, .finish]
            return steps
        case .failed:
            return situation.error == .paymentCancelled ? [.finish] : [.presentError, .finish]
        case .restored:
            // Consumables are never restored: deliver nothing twice.
            if shape.isConsumable { return [.finish] }
            if shape.receiptIsRecord {
                // The receipt already records it; only hosted content must come back.
                return shape.hostedContent ? [.download, .finish] : [.finish]
            }
            var steps: [BuiltInStep] = shape.hostedContent ? [.download] : []
            steps.append(.persist)
            steps.append(contentsOf: shape.deliveries)
            steps += [.notify, .finish]
            return steps
        }
    }

    /// All a default plan depends on: products of one shape have the same
    /// default plans, so a compiler builds them once per shape.
    public struct Shape: Sendable, Hashable {
        /// A consumable (never restored).
        public var isConsumable: Bool
        /// Server delivery or a server record: the receipt is verified first.
        public var verifiesReceipt: Bool
        /// Content that is not in the bundle.
        public var downloads: Bool
        /// Apple-hosted content (downloaded again on restore).
        public var hostedContent: Bool
        /// The receipt is the record.
        public var receiptIsRecord: Bool
        /// `unlock` and/or `grant`.
        public var deliveries: [BuiltInStep]

        /// A shape from its parts (the engine makes one from a compiled product).
        public init(isConsumable: Bool, verifiesReceipt: Bool, downloads: Bool, hostedContent: Bool, receiptIsRecord: Bool, deliveries: [BuiltInStep]) {
            self.isConsumable = isConsumable
            self.verifiesReceipt = verifiesReceipt
            self.downloads = downloads
            self.hostedContent = hostedContent
            self.receiptIsRecord = receiptIsRecord
            self.deliveries = deliveries
        }

        /// The shape of a product.
        public init(_ product: Product) {
            isConsumable = product.type.value == .consumable
            verifiesReceipt = DefaultPlan.needsReceiptVerification(product)
            downloads = DefaultPlan.downloads(product)
            hostedContent = product.delivery.content?.source.value == .appleHosted
            receiptIsRecord = product.persistence.strategy.value == .receipt
            deliveries = DefaultPlan.deliveries(product)
        }
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
    static func deliveries(_ product: Product) -> [BuiltInStep] {
        var steps: [BuiltInStep] = []
        if !product.delivery.unlocks.isEmpty || product.type.value != .consumable { steps.append(.unlock) }
        if !product.delivery.grants.isEmpty { steps.append(.grant) }
        return steps
    }
}
