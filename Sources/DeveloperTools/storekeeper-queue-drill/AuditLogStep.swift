import StorekeeperCore
import StorekeeperRuntime

/// The `audit-log` step Rocket Racer's catalog names and the app registers:
/// it returns a custom effect naming the product and quantity. It may kill
/// the process as it begins and after it made its effect, before the queue
/// has it: both must leave the effect kept exactly once.
struct AuditLogStep: SynchronousStepPlugin {
    let name = "audit-log"
    let killSwitch: KillSwitch

    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        killSwitch.reach(.stepBefore)
        effects.append(.custom(step: name, detail: "\(context.product.id) x\(context.transaction.quantity)"))
        killSwitch.reach(.stepAfter)
    }
}
