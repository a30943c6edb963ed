import StorekeeperCore
import StorekeeperRuntime

/// A plan's step, translated once per policy. A built-in step whose
/// registered plugin is the built-in one runs inline: the same effects its
/// plugin returns, without an `async` call, a context or an array of
/// effects per step. Any other step (an app's own, or a built-in the app
/// replaced) runs through its plugin. (`finish` is the queue's own, by name.)
enum StepCode: Sendable {
    case unlock
    case grant
    case notify
    case presentError
    /// `persist`: inline for strategies whose built-in plugin keeps nothing
    /// outside the journal (`receipt`, `app-state`); else through the plugin.
    case persist(any StepPlugin)
    case plugin(any StepPlugin)

    init(_ plugin: any StepPlugin) {
        switch plugin {
        case is UnlockStep: self = .unlock
        case is GrantStep: self = .grant
        case is NotifyStep: self = .notify
        case is PresentErrorStep: self = .presentError
        case is PersistStep: self = .persist(plugin)
        default: self = .plugin(plugin)
        }
    }
}

/// Where a running plan's output goes: effects the engine keeps, and
/// events for observers. The queue collects them for its commit; the
/// in-memory dispatcher applies them to its ledger at once.
protocol StepOutput {
    mutating func keep(_ effect: Effect)
    mutating func tell(_ event: QueueEvent)
}

/// The queue's output: collected, to commit with the dispatch's progress.
struct CollectedOutput: StepOutput {
    var kept: [Effect] = []
    var events: [QueueEvent] = []
    mutating func keep(_ effect: Effect) { kept.append(effect) }
    mutating func tell(_ event: QueueEvent) { events.append(event) }
}
