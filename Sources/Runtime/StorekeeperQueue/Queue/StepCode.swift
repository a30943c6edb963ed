import StorekeeperCore
import StorekeeperRuntime

/// A plan's step, translated once per policy. A built-in step whose
/// registered plugin is the built-in one runs inline: the same effects its
/// plugin appends, without an `async` call or a context per step. A
/// `SynchronousStepPlugin` runs inline too, through its plugin. Any other
/// step (an app's own, or a built-in the app replaced) is an `async` call to
/// its plugin. `PlanSteps` keeps the plugins beside the codes. `finish` is
/// the queue's own, whatever plugin is registered under its name.
enum StepCode: Sendable, Equatable {
    case unlock
    case grant
    case notify
    case presentError
    /// `persist`: inline for strategies whose built-in plugin keeps nothing
    /// outside the journal (`receipt`, `app-state`); else through the plugin.
    case persist
    case finish
    /// A `SynchronousStepPlugin`, called inline.
    case synchronousPlugin
    /// Any other plugin, called with `await`.
    case plugin

    init(_ step: ResolvedStep) {
        if step.name == BuiltInStep.finish.rawValue {
            self = .finish
            return
        }
        switch step.plugin {
        case is UnlockStep: self = .unlock
        case is GrantStep: self = .grant
        case is NotifyStep: self = .notify
        case is PresentErrorStep: self = .presentError
        case is PersistStep: self = .persist
        case is any SynchronousStepPlugin: self = .synchronousPlugin
        default: self = .plugin
        }
    }
}

/// Where a running plan's output goes: the effects its steps asked for, in
/// order, and (for the queue) the events its observers are told. The queue
/// commits the effects with the dispatch's progress; the in-memory
/// dispatcher applies them to its ledger.
struct StepOutput: Sendable {
    /// Every effect of the steps run, in order; a plugin step appends to it
    /// directly, and what a failed step appended is dropped.
    var effects = EffectBuffer()
    /// The events for observers (`notify`, `present-error`, failures).
    var events: [QueueEvent] = []
    /// Whether anyone hears the events: the in-memory dispatcher has no
    /// observers, and building an event copies the transaction.
    let tellsObservers: Bool

    /// Adds an event, if anyone hears them.
    @inline(__always)
    mutating func tell(_ event: @autoclosure () -> QueueEvent) {
        if tellsObservers { events.append(event()) }
    }
}
