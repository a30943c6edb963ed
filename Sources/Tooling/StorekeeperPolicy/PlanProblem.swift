import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics

/// Something wrong with the plans a custom rule makes, found by compiling
/// them. One problem stands for every plan where it occurs: `product` and
/// `situation` name the first, `planCount` says how many.
public struct PlanProblem: Sendable, Hashable {
    /// What is wrong.
    public var kind: Kind
    /// The rule (index in the catalog's `rules`) whose plans have the problem.
    public var rule: Int
    /// The first product whose plan has it.
    public var product: String
    /// The first situation where it occurs.
    public var situation: PlanSituation
    /// How many plans have it.
    public var planCount: Int

    /// Whether the problem is two rules competing, rather than a rule's steps.
    public var isAmbiguity: Bool {
        if case .ambiguous = kind { return true }
        return false
    }

    /// The kinds of problem.
    public enum Kind: Sendable, Hashable {
        /// `rule` and this earlier rule are equally specific and match one plan.
        case ambiguous(earlier: Int)
        /// `add` names a step the plan does not have.
        case missingAnchor(step: String, at: SourceRange)
        /// The plan takes this step after `finish` (a delivering step, or
        /// any other built-in one); `finishAt` is where the rule wrote `finish`, if it did.
        case finishesBeforeDelivery(step: BuiltInStep, stepAt: SourceRange, finishAt: SourceRange?)
        /// The plan (a rule's `do`) finishes without these delivering steps
        /// (or `verify-receipt`), which the default plan takes.
        case finishesWithout(steps: [BuiltInStep], finishAt: SourceRange)
        /// A `purchased`, `restored` or `failed` plan with no `finish`.
        case neverFinishes(at: SourceRange)
        /// `finish` in a `purchasing` or `deferred` plan: the transaction is not done.
        case finishesPending(at: SourceRange)
        /// The rule matches plans, but a more specific rule (this one) wins
        /// every one of them, so it never changes anything.
        case neverApplies(shadowedBy: Int)
        /// A step that cannot apply to the product or situation, and why.
        case notApplicable(step: String, at: SourceRange, reason: String)
    }
}
