import StorekeeperCompiler
import StorekeeperCore
import StorekeeperRuntime

/// The `audit-log` step Rocket Racer's catalog names (its `audit-coin-purchases` rule adds it after `grant`
/// to every consumable purchase), as the game would register it: one custom effect, the product and the
/// quantity bought. It never waits, so it is a `SynchronousStepPlugin`, which the queue calls inline.
struct AuditLogStep: SynchronousStepPlugin {
    /// `audit-log`, the name the catalog uses.
    static let stepName = "audit-log"
    /// `audit-log`.
    var name: String { Self.stepName }

    /// The log line, as a custom effect.
    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {
        effects.append(.custom(step: Self.stepName, detail: AuditLogStep.detail(product: context.product.id, quantity: context.transaction.quantity)))
    }

    /// The line logged for a purchase: the hand-written dispatch writes the same.
    static func detail(product: String, quantity: Int) -> String {
        "\(product) x\(quantity)"
    }
}
