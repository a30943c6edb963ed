import StorekeeperCompiler
import StorekeeperCore
public import StorekeeperRuntime
import StorekeeperSimulatedStore

/// A step the app registers itself (named in `storekeeper.yml`'s `steps`),
/// standing in for it in a simulation, where the app's code is not linked:
/// it succeeds and leaves a custom effect that says it stood in, so the
/// plan around it runs as in the app.
public struct StandInStep: SynchronousStepPlugin {
    /// The app's step name.
    public let name: String

    /// A stand-in for the step named `name`.
    public init(name: String) { self.name = name }

    /// Succeeds, noting that the app's plugin did not run.
    public func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: name, detail: "stand-in for the app's plugin (simulation)"))
    }
}
