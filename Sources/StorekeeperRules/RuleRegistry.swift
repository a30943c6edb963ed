import StorekeeperCatalog
import StorekeeperDiagnostics

/// Every rule, in one place: the CLI, the docs and the generic tests all
/// read this list.
public enum RuleRegistry {
    /// All rules, by id order.
    public static let all: [any CatalogRule.Type] = [
        BuiltInContentRule.self,
        ConsumablePersistenceRule.self,
        ConsumableRestoreRule.self,
        HostedContentRestoreRule.self,
        NonRenewingRecordRule.self,
        RestoreAtLaunchRule.self,
        ServerIdentityRule.self,
        ServerRequiredRule.self,
    ].sorted { $0.description.id < $1.description.id }

    /// Runs every rule over a catalog.
    public static func check(_ catalog: Catalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for rule in all {
            var report = RuleReport(rule: rule.description)
            rule.init().check(catalog, into: &report)
            diagnostics.append(contentsOf: report.diagnostics)
        }
        return diagnostics
    }
}
