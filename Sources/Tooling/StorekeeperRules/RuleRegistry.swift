public import StorekeeperCatalog
public import StorekeeperCore
public import StorekeeperDiagnostics
import StorekeeperPolicy

/// Every rule, in one place: the CLI, the docs and the generic tests all
/// read this list.
public enum RuleRegistry {
    /// All rules, by id order.
    public static let all: [any CatalogRule.Type] = [
        AmbiguousRulesRule.self,
        FinishBeforeDeliveryRule.self,
        FinishWhilePendingRule.self,
        MissingAnchorRule.self,
        PlanNeverFinishesRule.self,
        StepNotApplicableRule.self,
        UnknownStepRule.self,
        BuiltInContentRule.self,
        ConsumablePersistenceRule.self,
        ConsumableRestoreRule.self,
        HostedContentRestoreRule.self,
        NonRenewingRecordRule.self,
        RestoreAtLaunchRule.self,
        ServerIdentityRule.self,
        ServerRequiredRule.self,
        ShadowedRuleRule.self,
        AppStatePersistenceRule.self,
        ConsumableUnlocksRule.self,
        DefaultLocalizationRule.self,
        DisplayLengthRule.self,
        DuplicateSubscriptionPeriodRule.self,
        EmptyGroupRule.self,
        HostedContentSelectionRule.self,
        LookAlikeCharactersRule.self,
        ReceiptMinimumOSRule.self,
        SubscriptionLevelsRule.self,
        UserDefaultsFlagRule.self,
    ].sorted { $0.description.id < $1.description.id }

    /// The spec's compile-time checks of plans (`PlanCheck.enforced`): what
    /// `PolicyCompiler` enforces whatever a configuration says, because a
    /// plan that breaks one would lose or repeat a purchase at run time.
    public static let planRules: [any CatalogRule.Type] = {
        let enforced = Set(PlanCheck.enforced.map(\.id))
        return all.filter { enforced.contains($0.description.id) }
    }()

    /// Every rule's description, by id order.
    public static var descriptions: [RuleDescription] { all.map { $0.description } }

    /// Every rule's id.
    public static var ids: Set<String> { Set(all.map { $0.description.id }) }

    /// The rule with this id.
    public static func rule(id: String) -> (any CatalogRule.Type)? {
        all.first { $0.description.id == id }
    }

    /// Runs every rule over a catalog, with the built-in steps and `steps`' extra ones known;
    /// `isComplete` is false when format errors left products or rules out of it.
    ///
    /// `rules` narrows the run (to `planRules`, say).
    public static func check(_ catalog: Catalog, steps: StepLibrary = StepLibrary(), isComplete: Bool = true,
                             rules: [any CatalogRule.Type] = all) -> [Diagnostic] {
        let context = RuleContext(catalog: catalog, steps: steps, isComplete: isComplete)
        var diagnostics: [Diagnostic] = []
        for rule in rules {
            var report = RuleReport(rule: rule.description)
            rule.init().check(context, into: &report)
            diagnostics.append(contentsOf: report.diagnostics)
        }
        return diagnostics
    }
}
