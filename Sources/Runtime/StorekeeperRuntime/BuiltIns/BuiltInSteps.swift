import StorekeeperCore

/// The built-in steps, registered in every `PluginRegistry`.
enum BuiltInSteps {
    /// One plugin per `BuiltInStep`.
    static let all: [any StepPlugin] = BuiltInStep.allCases.map(plugin(for:))

    static func plugin(for step: BuiltInStep) -> any StepPlugin {
        switch step {
        case .notify: NotifyStep()
        case .verifyReceipt: VerifyReceiptStep()
        case .download: DownloadStep()
        case .persist: PersistStep()
        case .unlock: UnlockStep()
        case .grant: GrantStep()
        case .finish: FinishStep()
        case .presentError: PresentErrorStep()
        }
    }
}
