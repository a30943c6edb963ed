import StorekeeperSimulatedStore
/// The ids of the diagnostics that reading a scenario file (`ScenarioParser`)
/// and checking it against a compiled policy (`ScenarioCheck`) report.
///
/// YAML problems keep the YAML layer's own ids (`yaml-syntax`, `yaml-limit`,
/// `duplicate-key`, `yaml-alias`, …), as they do in catalogs.
public enum ScenarioRuleID {
    // MARK: Reading (ScenarioParser)

    /// The scenario file could not be read (no such file, a directory).
    public static let unreadable = "scenario-unreadable"
    /// A key the scenario format does not define at that place
    /// (top level, a `buy`, `crash`, `restore`, `refund`, `fail-downloads`,
    /// `expect` or download mapping).
    public static let unknownKey = "scenario-unknown-key"
    /// A step that is not an action (a misspelt or unknown action name).
    public static let unknownAction = "scenario-unknown-action"
    /// A value of the wrong shape: a list or mapping where a single value
    /// goes (or the reverse), a quoted number or boolean, an empty value, an
    /// argument given to an action that takes none, two actions in one step.
    public static let type = "scenario-type"
    /// A value of the right shape that is not accepted: out of range, not one
    /// of the listed words, a malformed date, duration, name or `told` message.
    public static let value = "scenario-value"
    /// A required key or argument is missing (`steps`, a `buy`'s `product`,
    /// a `crash`'s `before` or `after`, `buy` without a product, …).
    public static let missing = "scenario-missing"
    /// Two keys that exclude each other: more than one of `ask-to-buy`,
    /// `fail`, `interrupted`; both `before` and `after` in a `crash`.
    public static let conflict = "scenario-conflict"
    /// The same entry twice in a set (`features`, `owns`, `select`, …), or
    /// the same `as` name given to two purchases (or a product id used as one).
    public static let duplicate = "scenario-duplicate"
    /// A limit of the format: more than 10,000 steps, a quantity above the
    /// product's `max-quantity`, `advance` adding up to more than 100 years,
    /// a number too large to hold, too many problems to list.
    public static let limit = "scenario-limit"

    // MARK: Checking against the catalog (ScenarioCheck)

    /// A product id the catalog does not have.
    public static let unknownProduct = "scenario-unknown-product"
    /// A purchase name (`approve`, `decline`, `resolve`, `refund`,
    /// `unfinished`, `ask-to-buy`) that is neither an `as` name given earlier
    /// nor a product id, an `as` name used before the `buy` that gives it, or
    /// a product id no earlier `buy` buys.
    public static let unknownName = "scenario-unknown-name"
    /// A `crash` step that appears in no plan of the policy.
    public static let unknownStep = "scenario-unknown-step"
    /// A feature or balance the catalog does not declare.
    public static let undeclared = "scenario-undeclared"
    /// A product named where its type or content does not fit:
    /// `cancel-renewal` of a product that is not an auto-renewable
    /// subscription, a `downloads` key without Apple-hosted content, a
    /// consumable in `owns`, a product that is no subscription in
    /// `subscriptions`, `approve`, `decline` or `ask-to-buy` of a purchase
    /// made without Ask to Buy, `resolve` of one not interrupted; a `select`
    /// of a product a restore never selects (a warning).
    public static let notApplicable = "scenario-not-applicable"

    // MARK: The order of actions (ScenarioOrderCheck)

    /// An action the app's state at its place makes sure to fail: one that
    /// needs the app (`buy`, `restore`, `retry`, `quit`, `crash`, `expect`
    /// of entitlements) before the first `launch` or after `quit` or
    /// `crash`, or a `launch` of the app already running there.
    public static let appState = "scenario-app-state"
}
