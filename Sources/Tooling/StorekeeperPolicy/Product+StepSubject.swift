public import StorekeeperCatalog
public import StorekeeperCore
import StorekeeperDiagnostics

extension Product: StepSubject {
    /// The product's type.
    public var productType: ProductType { type.value }
    /// Whether it has content from `apple-hosted` or `server`.
    public var hasDownloadableContent: Bool { DefaultPlan.downloads(self) }
    /// The declared size of its content in bytes, if any.
    public var contentSize: Int64? { delivery.content?.size?.value.bytes }
    /// Whether it adds to balances.
    public var grantsBalances: Bool { !delivery.grants.isEmpty }
    /// Whether it unlocks features.
    public var unlocksFeatures: Bool { !delivery.unlocks.isEmpty }
}
