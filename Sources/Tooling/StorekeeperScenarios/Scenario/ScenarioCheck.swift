import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperQueue
public import StorekeeperRuntime
import StorekeeperSimulatedStore
import Foundation

/// Checks a parsed scenario against the compiled policy it will run on:
/// every product, step, feature, balance and purchase name it mentions must
/// exist, quantities stay within `max-quantity`, and `advance` adds up to at
/// most 100 years (docs/simulate.md, "The scenario file" and "Limits").
///
/// Each problem is located at the value to change, with the nearest valid
/// spelling when there is one. A scenario with an error must not run.
///
/// ```swift
/// let problems = ScenarioCheck.check(scenario, policy: policy)
/// guard !problems.contains(where: { $0.severity == .error }) else { ... }
/// ```
///
/// Values the model keeps as a whole (the sets and mappings of `expect`,
/// the names of `unfinished`) are reported at that whole value, naming the
/// entry that is wrong.
public struct ScenarioCheck: Sendable {
    /// The most years all `advance` steps may add up to.
    public static let maxYears = 100
    /// The most diagnostics listed for one scenario.
    static let limit = 1_000

    /// Every problem of `scenario` against `policy`, in reading order.
    public static func check(_ scenario: Scenario, policy: CompiledPolicy) -> [Diagnostic] {
        check(scenario, skipped: [], policy: policy, checksOrder: false, ceiling: limit)
    }

    /// The problems of what a scenario file gave, even one with errors:
    /// its actions (read whole or in part) and the items that gave none,
    /// taken in the file's order. With `checksOrder`, the order of actions
    /// is checked too (``ScenarioOrderCheck``). At most `ceiling` are listed.
    static func check(_ scenario: Scenario, skipped: [SkippedStep], policy: CompiledPolicy, checksOrder: Bool, ceiling: Int) -> [Diagnostic] {
        var checker = Checker(scenario: scenario, skipped: skipped, policy: policy, ceiling: ceiling)
        var order = checksOrder ? ScenarioOrderCheck(scenario: scenario, policy: policy) : nil
        var pending = skipped[...]
        for step in scenario.steps {
            while let next = pending.first, next.location < step.location {
                checker.skip(next)
                order?.skip(next)
                pending.removeFirst()
            }
            checker.check(step)
            for problem in order?.check(step) ?? [] { checker.diagnostics.append(problem) }
        }
        return Diagnostic.normalized(checker.finished())
    }
}

/// The state of one check: what the catalog has, the names given so far,
/// the simulated clock.
private struct Checker {
    let policy: CompiledPolicy
    let file: String
    let productIDs: [String]
    let features: Set<String>
    let balances: Set<String>
    /// Every step name of every plan, sorted.
    let stepNames: [String]
    /// Every `as` name of the scenario, where it is first given.
    let allNames: [String: Located<String>]
    /// The `as` names given by the steps checked so far.
    var givenNames: [String: Located<String>] = [:]
    /// What was found, the first `ceiling` listed (the one cap of every limit, `DiagnosticCap`).
    var diagnostics: DiagnosticCap
    /// The simulated clock, moved by each `advance`.
    var clock: Date
    let latest: Date?
    var clockReported = false

    init(scenario: Scenario, skipped: [SkippedStep], policy: CompiledPolicy, ceiling: Int) {
        self.policy = policy
        file = scenario.file
        diagnostics = DiagnosticCap(ceiling: ceiling)
        productIDs = policy.products.map(\.id)
        features = Set(policy.features).union(policy.products.flatMap(\.unlocks))
        balances = Set(policy.balances).union(policy.products.flatMap { $0.grants.map(\.balance) })
        stepNames = Set(policy.plans.flatMap(\.stepNames)).sorted()
        var names: [String: Located<String>] = [:]
        for step in scenario.steps {
            if case .buy(let purchase) = step.action, let name = purchase.name, names[name.value] == nil {
                names[name.value] = name
            }
        }
        for step in skipped {
            if let name = step.name, names[name.value].map({ name.location < $0.location }) ?? true { names[name.value] = name }
        }
        allNames = names
        clock = scenario.start
        latest = Checker.utc.date(byAdding: .year, value: ScenarioCheck.maxYears, to: scenario.start)
    }

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    // MARK: Reporting

    mutating func report(_ severity: Severity, _ rule: String, _ message: String, at range: SourceRange, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(severity, rule: rule, message, at: range, notes: notes))
    }

    mutating func error<T>(_ rule: String, _ message: String, at value: Located<T>, notes: [Diagnostic.Note] = []) {
        report(.error, rule, message, at: value.range, notes: notes)
    }

    func finished() -> [Diagnostic] {
        guard diagnostics.leftOutCount > 0 else { return diagnostics.kept }
        return diagnostics.kept + [Diagnostic(
            diagnostics.highestLeftOut ?? .error, rule: ScenarioRuleID.limit,
            "\(diagnostics.leftOutCount) more problems were found and not listed (at most \(ScenarioCheck.limit) are listed for a scenario); fix these and run again",
            at: SourceLocation(file: file, line: 1, column: 1))]
    }

    // MARK: Steps

    /// An item that gave no action: a name it gives counts as given (its
    /// own problems are reported already).
    mutating func skip(_ step: SkippedStep) {
        if let name = step.name, givenNames[name.value] == nil { givenNames[name.value] = name }
    }

    mutating func check(_ step: ScenarioStep) {
        switch step.action {
        case .crash(let point?):
            checkCrash(point)
        case .buy(let purchase):
            checkPurchase(purchase)
        case .approve(let reference), .decline(let reference), .resolve(let reference), .refund(let reference, _):
            checkReference(reference.value, at: reference.range)
        case .restore(let request):
            for product in request.selection ?? [] { checkSelected(product) }
        case .advance(let duration):
            checkAdvance(duration, at: step.location)
        case .cancelRenewal(let id):
            guard let product = product(id.value, at: id.range) else { return }
            if product.type != .autoRenewableSubscription {
                let subscriptions = productIDs(where: { $0.type == .autoRenewableSubscription })
                let which = subscriptions.isEmpty ? "the catalog has none" : "the catalog's are \(Self.list(subscriptions))"
                error(ScenarioRuleID.notApplicable, "'\(id.value)' is \(Self.article(product.type)); `cancel-renewal` applies only to auto-renewable subscriptions (\(which))", at: id)
            }
        case .spend(let spend):
            checkSpend(spend)
        case .expect(let expectation):
            checkExpectation(expectation)
        case .launch, .relaunch, .quit, .crash(nil), .offline, .online, .retry, .refreshReceipt, .failDownloads,
             .pauseDownloads, .resumeDownloads, .cancelDownloads:
            break
        }
    }

    mutating func checkCrash(_ point: CrashPoint) {
        guard !stepNames.contains(point.step.value) else { return }
        var message = "no plan of the catalog has a step '\(point.step.value)'"
        if let nearest = Suggestion.nearest(to: point.step.value, in: stepNames) { message += "; did you mean '\(nearest)'?" }
        message += " (the plans' steps are \(stepNames.joined(separator: ", ")))"
        error(ScenarioRuleID.unknownStep, message, at: point.step)
    }

    mutating func checkPurchase(_ purchase: Purchase) {
        if let name = purchase.name {
            if let first = givenNames[name.value] {
                error(ScenarioRuleID.duplicate, "the name '\(name.value)' is already given to a purchase; an `as` name refers to one purchase, so choose another", at: name,
                      notes: [Diagnostic.Note("'\(name.value)' is first given here", at: first.location)])
            } else if policy.product(id: name.value) != nil {
                error(ScenarioRuleID.duplicate, "the name '\(name.value)' is a product id of the catalog, which references also read (the latest purchase of that product); choose a name that is not a product id", at: name)
            } else {
                givenNames[name.value] = name
            }
        }
        guard let product = product(purchase.product.value, at: purchase.product.range) else { return }
        if purchase.quantity.value > product.maxQuantity {
            let why = product.maxQuantity == 1
                ? "'\(product.id)' is bought one at a time (only consumables with a `max-quantity` are bought several at once)"
                : "'\(product.id)' has a max-quantity of \(product.maxQuantity)"
            error(ScenarioRuleID.limit, "quantity \(purchase.quantity.value) is too many: \(why); buy at most \(product.maxQuantity)", at: purchase.quantity)
        }
    }

    /// A purchase name: an `as` name given earlier, or a product id.
    mutating func checkReference(_ name: String, at range: SourceRange) {
        if givenNames[name] != nil || policy.product(id: name) != nil { return }
        if let later = allNames[name] {
            report(.error, ScenarioRuleID.unknownName,
                   "'\(name)' is used before it is given: the buy that names it comes later, at line \(later.location.line); refer to a purchase after the `buy` that gives it `as: \(name)`",
                   at: range, notes: [Diagnostic.Note("'\(name)' is given here", at: later.location)])
            return
        }
        var message = "'\(name)' is neither a name given with `as` by an earlier buy nor a product of the catalog"
        let given = givenNames.keys.sorted()
        if let nearest = Suggestion.nearest(to: name, in: given + productIDs) {
            message += "; did you mean '\(nearest)'?"
        } else if !given.isEmpty {
            message += " (the names given so far are \(Self.list(given)))"
        }
        report(.error, ScenarioRuleID.unknownName, message, at: range)
    }

    mutating func checkSelected(_ selected: Located<String>) {
        guard let product = product(selected.value, at: selected.range) else { return }
        if product.content?.source != .appleHosted {
            report(.warning, ScenarioRuleID.notApplicable,
                   "'\(selected.value)' has no Apple-hosted content, so a restore has nothing to select for it; `select` chooses among products with `selection: user`",
                   at: selected.range)
        } else if product.restoreSelection != .user {
            report(.warning, ScenarioRuleID.notApplicable,
                   "'\(selected.value)' is restored whether selected or not (its catalog says `selection: all`); `select` chooses among products with `selection: user`",
                   at: selected.range)
        }
    }

    mutating func checkAdvance(_ duration: ScenarioDuration, at location: SourceLocation) {
        guard !clockReported, let latest else { return }
        // A lower bound first: an advance surely too long is reported without
        // asking the calendar to add absurd amounts.
        let days = duration.years * 365 + duration.months * 28 + duration.days + duration.seconds / 86_400
        if days > ScenarioCheck.maxYears * 366 {
            reportClock(duration, at: location)
            return
        }
        clock = duration.added(to: clock)
        if clock > latest { reportClock(duration, at: location) }
    }

    mutating func reportClock(_ duration: ScenarioDuration, at location: SourceLocation) {
        clockReported = true
        report(.error, ScenarioRuleID.limit,
               "with `advance: \(duration)` the simulated clock passes \(ScenarioCheck.maxYears) years after the start; `advance` adds up to at most \(ScenarioCheck.maxYears) years in a scenario",
               at: SourceRange(start: location))
    }

    mutating func checkSpend(_ spend: SpendRequest) {
        guard balances.contains(spend.balance.value) else {
            undeclared(spend.balance.value, kind: "balance", known: balances, at: spend.balance)
            return
        }
        if let crash = spend.crash, crash.value == .sent, BalanceKeeping.of(policy)[spend.balance.value] ?? .device == .device {
            error(ScenarioRuleID.notApplicable, "'\(spend.balance.value)' is kept on the device, where a spend is one commit sent nowhere; crash once it is `journalled`, or spend a balance kept in iCloud or on the server", at: crash)
        }
    }

    // MARK: Expectations

    mutating func checkExpectation(_ expectation: Expectation) {
        if let features = expectation.features {
            for feature in features.value.sorted() where !self.features.contains(feature) {
                undeclared(feature, kind: "feature", known: self.features, at: features)
            }
        }
        for balances in [expectation.balances, expectation.overdrawn].compactMap({ $0 }) {
            for balance in balances.value.keys.sorted() where !self.balances.contains(balance) {
                undeclared(balance, kind: "balance", known: self.balances, at: balances)
            }
        }
        if let owns = expectation.owns {
            for id in owns.value.sorted() {
                guard let product = product(id, at: owns.range) else { continue }
                if product.type == .consumable {
                    error(ScenarioRuleID.notApplicable, "'\(id)' is a consumable, which is never owned; check what it grants with `balances`", at: owns)
                }
            }
        }
        if let subscriptions = expectation.subscriptions {
            for id in subscriptions.value.sorted() {
                guard let product = product(id, at: subscriptions.range) else { continue }
                if product.type != .autoRenewableSubscription, product.type != .nonRenewingSubscription {
                    error(ScenarioRuleID.notApplicable, "'\(id)' is \(Self.article(product.type)), not a subscription; list it in `owns` or check `balances`", at: subscriptions)
                }
            }
        }
        if let receipt = expectation.receipt {
            for id in receipt.value.sorted() { _ = product(id, at: receipt.range) }
        }
        if let downloads = expectation.downloads {
            for id in downloads.value.keys.sorted() {
                guard let product = product(id, at: downloads.range) else { continue }
                if product.content?.source != .appleHosted {
                    let hosted = productIDs(where: { $0.content?.source == .appleHosted })
                    let which = hosted.isEmpty ? "the catalog has none" : "the catalog's are \(Self.list(hosted))"
                    error(ScenarioRuleID.notApplicable, "'\(id)' has no Apple-hosted content, so it never downloads; `downloads` names products whose content is `apple-hosted` (\(which))", at: downloads)
                }
            }
        }
        if let unfinished = expectation.unfinished, case .purchases(let names) = unfinished.value {
            for name in names { checkReference(name, at: unfinished.range) }
        }
        if let requests = expectation.askToBuy {
            for name in requests.value.keys.sorted() { checkReference(name, at: requests.range) }
        }
        if let told = expectation.told {
            for message in told.value {
                let words = message.split(separator: " ").map(String.init)
                guard let first = words.first, words.count >= 2, ["notify", "error", "revoked"].contains(first) else { continue }
                _ = product(words[1], at: told.range, context: " in the `told` message '\(message)'")
            }
        }
    }

    mutating func undeclared<T>(_ name: String, kind: String, known: Set<String>, at value: Located<T>) {
        var message = "the catalog declares no \(kind) '\(name)'"
        let sorted = known.sorted()
        if let nearest = Suggestion.nearest(to: name, in: sorted) {
            message += "; did you mean '\(nearest)'?"
        } else if sorted.isEmpty {
            message += " (it declares no \(kind)s)"
        } else {
            message += " (its \(kind)s are \(Self.list(sorted)))"
        }
        error(ScenarioRuleID.undeclared, message, at: value)
    }

    // MARK: Products

    /// The product with this id; reports an unknown one at `range`.
    mutating func product(_ id: String, at range: SourceRange, context: String = "") -> ProductPolicy? {
        if let handle = policy.product(id: id) { return policy.product(handle) }
        var message = "the catalog '\(policy.catalog)' has no product '\(id)'\(context)"
        if let nearest = Suggestion.nearest(to: id, in: productIDs) {
            message += "; did you mean '\(nearest)'?"
        } else if productIDs.count <= 12 {
            message += " (its products are \(Self.list(productIDs)))"
        }
        report(.error, ScenarioRuleID.unknownProduct, message, at: range)
        return nil
    }

    func productIDs(where include: (ProductPolicy) -> Bool) -> [String] {
        policy.products.filter(include).map(\.id)
    }

    /// At most ten names, then how many more.
    static func list(_ names: [String]) -> String {
        names.count <= 10 ? names.joined(separator: ", ") : names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more"
    }

    /// "a consumable", "an auto-renewable-subscription".
    static func article(_ type: ProductType) -> String {
        switch type {
        case .consumable: "a consumable"
        case .nonConsumable: "a non-consumable"
        case .autoRenewableSubscription: "an auto-renewable subscription"
        case .nonRenewingSubscription: "a non-renewing subscription"
        }
    }
}
