public import StorekeeperQueue
public import StorekeeperRuntime

/// Looking up the products a compiled policy declares, for a store screen.
extension ProductSource {
    /// Loads every product the policy declares: what the store sells, and
    /// which of the catalog's ids it does not know.
    public func products(declaredIn policy: CompiledPolicy) async throws(StepFailure) -> ProductLookup {
        try await products(for: Set(policy.products.map(\.id)))
    }
}
