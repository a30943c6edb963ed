import PackagePlugin

/// Generates typed product ids from a target's catalogs (placeholder: filled in by issue 7).
@main
struct StorekeeperCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] { [] }
}
