import Foundation
import PackagePlugin

/// Compiles the catalog of a target into its policy and bundles it with the
/// target, so that an app ships the policy, not the YAML.
///
/// - The catalog is found as StorekeeperCodegenPlugin finds catalogs (the
///   target folder's `.yaml` and `.yml` files with a top-level `catalog`
///   key, plus those a `storekeeper-codegen.json` names); there must be one.
/// - It is validated as `storekeeper validate` does (the format, then the
///   policy rules with the storekeeper.yml found beside or above it); any
///   error fails the build with validate's diagnostics, at their line.
/// - The output, `storekeeper-policy.json`, is the JSON of
///   `storekeeper compile --compact`. SwiftPM makes a build command's
///   output that is not Swift a resource of the target and generates
///   `Bundle.module`; the app loads it with `CompiledPolicy.bundled(in: .module)`.
/// - Editing the catalog, a fragment, or a storekeeper.yml above them runs
///   it again.
@main
struct StorekeeperPolicyPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = CodegenInputs(searchDirectories: [target.directoryURL])
        return [Self.command(inputs: inputs, tool: try context.tool(named: "storekeeper-codegen").url,
                             workDirectory: context.pluginWorkDirectoryURL, targetName: target.name)]
    }

    /// The one build command for a target.
    static func command(inputs: CodegenInputs, tool: URL, workDirectory: URL, targetName: String) -> Command {
        let output = workDirectory.appending(path: "storekeeper-policy.json")
        var arguments = ["--policy", "--output", output.path(percentEncoded: false)]
        if let settings = inputs.settings {
            arguments += ["--settings", settings.path(percentEncoded: false)]
        }
        arguments.append("--")
        arguments += inputs.searchDirectories.map { $0.path(percentEncoded: false) }
        return .buildCommand(
            displayName: "Compiling the catalog of \(targetName) into its policy",
            executable: tool,
            arguments: arguments,
            inputFiles: inputs.files,
            outputFiles: [output])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same in an Xcode project: the catalog is found in the folders that
/// hold the target's YAML files. Written against Xcode's API but not built
/// here, where there is no Xcode (see docs/embedding.md).
extension StorekeeperPolicyPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let yaml = target.inputFiles.map(\.url).filter(CodegenInputs.isYAML)
        let folders = CodegenInputs.outermost(Set(yaml.map { $0.deletingLastPathComponent() }))
        guard !folders.isEmpty else { return [] }
        return [Self.command(inputs: CodegenInputs(searchDirectories: folders), tool: try context.tool(named: "storekeeper-codegen").url,
                             workDirectory: context.pluginWorkDirectoryURL, targetName: target.displayName)]
    }
}
#endif
