/// A step known by name only (from `storekeeper.yml`'s `steps`), so that
/// catalogs naming it can be checked and compiled where its implementation
/// is not linked in, as in the CLI. Running it fails: the app registers the
/// real step before it runs plans.
package struct DeclaredStep: SynchronousStepPlugin {
    /// The declared name.
    package let name: String
    /// Declares a step.
    package init(name: String) { self.name = name }
    /// Always fails: there is nothing here to run.
    package func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        throw .permanent("the step '\(name)' was declared but not registered; register its plugin with PluginRegistry.register(_:)")
    }
}
