/// What every step that one runner (a queue, a dispatcher) runs shares: its
/// policy's products, its plugins and the host's services. Contexts refer to
/// it, so none of these is copied per transaction.
@usableFromInline
package final class StepEnvironment: Sendable {
    /// The products, as in `CompiledPolicy.products`.
    @usableFromInline package let products: [ProductPolicy]
    /// The plugins.
    @usableFromInline package let plugins: PluginRegistry
    /// The host's services.
    @usableFromInline package let services: EngineServices

    /// An environment of products, plugins and services.
    package init(products: [ProductPolicy], plugins: PluginRegistry, services: EngineServices) {
        self.products = products
        self.plugins = plugins
        self.services = services
    }

    /// The environment of a policy's plans, run with these services.
    package convenience init(policy: CompiledPolicy, services: EngineServices) {
        self.init(products: policy.products, plugins: policy.plugins, services: services)
    }
}
