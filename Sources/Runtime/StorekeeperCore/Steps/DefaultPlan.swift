
/// The guide's plan for each product and situation, before custom rules
/// (the catalog format specification's "Transaction states and the default
/// policy"; `storekeeper explain` prints the plans a catalog compiles to).
public enum DefaultPlan {

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
            // A restore is how a purchase reaches a new device, which has none
            // of its content yet: content that is not in the bundle (Apple-hosted
            // or from the app's server) is downloaded again (Restoring Purchased
            // Products: "re-download the user-selected content").
            if shape.receiptIsRecord {
                // The receipt already records it; only the content must come back.
                return shape.downloads ? [.download, .finish] : [.finish]
            }
            var steps: [BuiltInStep] = shape.downloads ? [.download] : []
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
        /// Apple-hosted content (only restored transactions carry its downloads).
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

        /// The shape of a product with these facts: the one derivation, which a
        /// catalog's product (the tooling) and a compiled policy's (the engine)
        /// both go through. Server delivery or a server record verify the
        /// receipt first; content not in the bundle is downloaded; `unlock` for
        /// features and every product that is kept, `grant` for balances.
        public init(type: ProductType, delivery: DeliveryModel, persistence: PersistenceStrategy, contentSource: ContentSource?,
                    unlocksFeatures: Bool, grantsBalances: Bool) {
            var deliveries: [BuiltInStep] = []
            if unlocksFeatures || type != .consumable { deliveries.append(.unlock) }
            if grantsBalances { deliveries.append(.grant) }
            self.init(
                isConsumable: type == .consumable, verifiesReceipt: delivery == .server || persistence == .server,
                downloads: contentSource.map { $0 != .bundle } ?? false, hostedContent: contentSource == .appleHosted,
                receiptIsRecord: persistence == .receipt, deliveries: deliveries)
        }
    }
}
