import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore
extension ScenarioAction {
    /// The action as the trace shows it, close to how the scenario writes it.
    var summary: String {
        switch self {
        case .launch(let device): device.map { "launch \($0)" } ?? "launch"
        case .relaunch: "relaunch"
        case .quit: "quit"
        case .crash(let point): point.map { "crash \($0.moment.rawValue) \($0.step.value)" } ?? "crash"
        case .buy(let purchase): "buy \(purchase.product.value)" + Self.details(purchase)
        case .approve(let reference): "approve \(reference.value)"
        case .decline(let reference): "decline \(reference.value)"
        case .resolve(let reference): "resolve \(reference.value)"
        case .offline: "offline"
        case .online: "online"
        case .retry: "retry"
        case .restore(let request):
            "restore" + (request.user.map { " as \($0)" } ?? "") + (request.selection.map { " selecting \($0.map(\.value).joined(separator: ", "))" } ?? "")
        case .refreshReceipt: "refresh-receipt"
        case .advance(let duration): "advance \(duration)"
        case .cancelRenewal(let product): "cancel-renewal \(product.value)"
        case .refund(let reference, let reason): reason == .refund ? "refund \(reference.value)" : "revoke \(reference.value) (family sharing)"
        case .failDownloads(let fault): "fail-downloads \(fault.kind.rawValue) at \(fault.percent)%"
        case .pauseDownloads: "pause-downloads"
        case .resumeDownloads: "resume-downloads"
        case .cancelDownloads: "cancel-downloads"
        case .spend(let spend):
            "spend \(spend.amount.value) \(spend.balance.value) as \(spend.key.value)" + (spend.crash.map { " (crash once \($0.value.rawValue))" } ?? "")
        case .expect: "expect"
        }
    }

    private static func details(_ purchase: Purchase) -> String {
        var parts: [String] = []
        if purchase.quantity.value != 1 { parts.append("× \(purchase.quantity.value)") }
        switch purchase.outcome {
        case .succeed: break
        case .askToBuy: parts.append("(Ask to Buy)")
        case .interrupted: parts.append("(interrupted)")
        case .fail(let code): parts.append("(fails: \(code.rawValue))")
        }
        if let name = purchase.name { parts.append("as \(name.value)") }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }
}
