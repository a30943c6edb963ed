public import StorekeeperDiagnostics

/// A check of the plans a catalog's custom rules make: the id and severity
/// of its diagnostics, named once here for the lint rule of that id
/// (`storekeeper rules`) and for the compiler, which refuses what the
/// `enforced` checks find whatever a configuration says.
public struct PlanCheck: Sendable, Hashable {
    /// The kebab-case id its diagnostics carry, and its lint rule's id.
    public let id: String
    /// The severity it reports with unless configured otherwise.
    public let severity: Severity

    private init(id: String, severity: Severity) {
        self.id = id
        self.severity = severity
    }

    /// Two equally specific custom rules match one plan.
    public static let ambiguousRules = PlanCheck(id: "ambiguous-rules", severity: .error)
    /// A plan takes a built-in step after `finish`, or finishes without a delivering step its default plan takes.
    public static let finishBeforeDelivery = PlanCheck(id: "finish-before-delivery", severity: .error)
    /// A `purchasing` or `deferred` plan finishes.
    public static let finishWhilePending = PlanCheck(id: "finish-while-pending", severity: .error)
    /// `add` inserts next to a step a matching plan does not have.
    public static let missingAnchor = PlanCheck(id: "missing-anchor", severity: .error)
    /// A `purchased`, `restored` or `failed` plan never finishes.
    public static let planNeverFinishes = PlanCheck(id: "plan-never-finishes", severity: .error)
    /// A step cannot apply to a product or situation its rule matches.
    public static let stepNotApplicable = PlanCheck(id: "step-not-applicable", severity: .error)
    /// A custom rule names a step that is neither built in nor registered.
    public static let unknownStep = PlanCheck(id: "unknown-step", severity: .error)
    /// A custom rule that a more specific one overrides in every plan it matches.
    public static let shadowedRule = PlanCheck(id: "shadowed-rule", severity: .warning)

    /// The spec's compile-time checks of plans: a plan that fails one would
    /// lose or repeat a purchase at run time, so the compiler refuses it.
    public static let enforced: [PlanCheck] = [
        .ambiguousRules, .finishBeforeDelivery, .finishWhilePending, .missingAnchor, .planNeverFinishes, .stepNotApplicable, .unknownStep,
    ]
}
