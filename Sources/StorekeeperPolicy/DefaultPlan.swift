import StorekeeperCatalog

/// The guide's plan for each product and situation, before custom rules
/// (`../shared/spec/catalog-format.md`, "Transaction states and the default
/// policy").
public enum DefaultPlan {
    /// The default steps for a product in a situation.
    public static func steps(for product: Product, in situation: PlanSituation) -> [BuiltInStep] {
        switch situation.state {
        case .purchasing, .deferred:
            // Update the interface, then wait for the next state.
            return [.notify]
        case .purchased:
            var steps: [BuiltInStep] = []
            if needsReceiptVerification(product) { steps.append(.verifyReceipt) }
            if downloads(product) { steps.append(.download) }
            steps.append(.persist)
            steps.append(contentsOf: deliveries(product))
            steps += [.notify, .finish]
            return steps
        case .failed:
            return situation.error == .paymentCancelled ? [.finish] : [.presentError, .finish]
        case .restored:
            // Consumables are never restored: deliver nothing twice.
            if product.type.value == .consumable { return [.finish] }
            let hosted = product.delivery.content?.source.value == .appleHosted
            if product.persistence.strategy.value == .receipt {
                // The receipt already records it; only hosted content must come back.
                return hosted ? [.download, .finish] : [.finish]
            }
            var steps: [BuiltInStep] = hosted ? [.download] : []
            steps.append(.persist)
            steps.append(contentsOf: deliveries(product))
            steps += [.notify, .finish]
            return steps
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
