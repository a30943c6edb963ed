import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperSimulatedStore

/// Finds, before anything runs, the actions whose place in the scenario is
/// sure to stop the session when it gets there (docs/simulate.md, "Errors in
/// a scenario"): an action that needs the app before the first `launch` or
/// after `quit` or `crash`, a `launch` of the app already running, a product
/// referred to before any `buy` of it, an `approve` of a purchase made
/// without Ask to Buy. Reported with the file's other problems, they do not
/// wait for a run that stops at the first.
///
/// Only what is certain is reported: once a crash is armed, the app may die
/// at any plan, so whether it runs is no longer known until it is quit; an
/// item that could not be read may have been any action, so what it might
/// have changed is no longer known either.
struct ScenarioOrderCheck {
    /// Whether the app runs at a point of the scenario.
    private enum AppState {
        case running, stopped, unknown
    }

    let policy: CompiledPolicy
    private var app = AppState.stopped
    /// The current device; nil once an unreadable item may have switched it.
    private var device: String?
    private var crashArmed = false
    /// The products some earlier `buy` buys.
    private var bought: Set<String> = []
    /// An unreadable buy came earlier: any product may have been bought.
    private var anyBought = false
    /// The `as` names given so far, and the outcome of their buy (nil: unknown).
    private var outcomes: [String: Purchase.Outcome?] = [:]

    init(scenario: Scenario, policy: CompiledPolicy) {
        self.policy = policy
        device = scenario.device
    }

    // MARK: Steps

    /// The problems of `step` at its place; then what it changes.
    mutating func check(_ step: ScenarioStep) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func report(_ rule: String, _ message: String, at range: SourceRange) {
            problems.append(Diagnostic(.error, rule: rule, message, at: range))
        }
        let here = SourceRange(start: step.location)
        switch step.action {
        case .launch(let name):
            if app == .running, name == nil || name == device {
                report(ScenarioRuleID.appState, "the app is already running on \(device ?? "this device") here; `relaunch` restarts it, `launch: OTHER` switches devices", at: here)
            }
            if let name { device = name }
            app = crashArmed ? .unknown : .running
        case .relaunch:
            app = crashArmed ? .unknown : .running
        case .quit:
            needsApp("quit", at: here, report: report)
            app = .stopped
        case .crash(nil):
            needsApp("crash", at: here, report: report)
            app = .stopped
        case .crash:
            crashArmed = true
            if app == .running { app = .unknown }
        case .buy(let purchase):
            needsApp("buy", at: here, report: report)
            bought.insert(purchase.product.value)
            if let name = purchase.name { outcomes[name.value] = purchase.outcome }
        case .retry:
            needsApp("retry", at: here, report: report)
        case .spend(let spend):
            needsApp("spend", at: here, report: report)
            // The crash happens only if the spend gets that far.
            if spend.crash != nil, app == .running { app = .unknown }
        case .restore:
            needsApp("restore", at: here, report: report)
        case .approve(let reference), .decline(let reference):
            checkMade(reference.value, at: reference.range, report: report)
            if let outcome = outcomes[reference.value], let known = outcome, known != .askToBuy {
                let action = if case .approve = step.action { "approve" } else { "decline" }
                report(ScenarioRuleID.notApplicable, "'\(reference.value)' is bought without `ask-to-buy: true`, so there is no request to \(action); add `ask-to-buy: true` to its buy", at: reference.range)
            }
        case .resolve(let reference):
            checkMade(reference.value, at: reference.range, report: report)
            if let outcome = outcomes[reference.value], let known = outcome, known != .interrupted {
                report(ScenarioRuleID.notApplicable, "'\(reference.value)' is bought without `interrupted: true`, so there is nothing to resolve; add `interrupted: true` to its buy", at: reference.range)
            }
        case .refund(let reference, _):
            checkMade(reference.value, at: reference.range, report: report)
        case .expect(let expectation):
            let readsApp = expectation.features != nil || expectation.owns != nil || expectation.subscriptions != nil || expectation.balances != nil
                || expectation.overdrawn != nil
            if readsApp, app == .stopped {
                report(ScenarioRuleID.appState, "`expect` of features, owns, subscriptions, balances or overdrawn reads the running app, and the app does not run here (not before the first `launch`, nor after `quit` or `crash`): `launch` it first", at: here)
            }
            if let unfinished = expectation.unfinished, case .purchases(let names) = unfinished.value {
                for name in names { checkMade(name, at: unfinished.range, report: report) }
            }
            if let requests = expectation.askToBuy {
                for name in requests.value.keys.sorted() {
                    checkMade(name, at: requests.range, report: report)
                    if let outcome = outcomes[name], let known = outcome, known != .askToBuy {
                        report(ScenarioRuleID.notApplicable, "'\(name)' is bought without `ask-to-buy: true`, so it made no request to expect; add `ask-to-buy: true` to its buy, or leave it out of `ask-to-buy`", at: requests.range)
                    }
                }
            }
        case .offline, .online, .refreshReceipt, .advance, .cancelRenewal, .failDownloads, .pauseDownloads, .resumeDownloads, .cancelDownloads:
            break
        }
        return problems
    }

    /// An item that gave no action: what it may have changed is no longer known.
    mutating func skip(_ step: SkippedStep) {
        let action = step.action
        if action == nil || ["launch", "relaunch", "quit", "crash"].contains(action) { app = .unknown }
        if action == nil || action == "launch" { device = nil }
        if action == nil || action == "crash" { crashArmed = true }
        if action == nil || action == "buy" { anyBought = true }
        if let name = step.name { outcomes[name.value] = .some(nil) }
    }

    // MARK: Checks

    private func needsApp(_ action: String, at range: SourceRange, report: (String, String, SourceRange) -> Void) {
        guard app == .stopped else { return }
        report(ScenarioRuleID.appState, "`\(action)` needs the app running, and it does not run here (not before the first `launch`, nor after `quit` or `crash`): add `launch` (or `relaunch`) before it", range)
    }

    /// A product id that refers to a purchase (its latest) must have been
    /// bought before; `as` names and unknown names are `ScenarioCheck`'s.
    private func checkMade(_ reference: String, at range: SourceRange, report: (String, String, SourceRange) -> Void) {
        guard !outcomes.keys.contains(reference), !anyBought, !bought.contains(reference), policy.product(id: reference) != nil else { return }
        report(ScenarioRuleID.unknownName, "no purchase of '\(reference)' is made before this, and a product id refers to the latest purchase of the product; `buy` it first, or move this after its buy", range)
    }
}
