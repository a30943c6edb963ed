import Foundation
import PackagePlugin

/// Generates typed Swift (product ids, features, balances, subscription
/// groups) from the catalogs of a target, at every build that needs it.
///
/// - The catalogs are the target directory's `.yaml` and `.yml` files with a
///   top-level `catalog` key (fragments are read through them, other YAML is
///   ignored: the rule of `storekeeper validate DIRECTORY`), plus those a
///   `storekeeper-codegen.json` in the target names.
/// - Every YAML file of the target, those of the named catalogs' folders,
///   the settings file and the `storekeeper.yml` above them are the
///   command's inputs: editing any of them runs it again, and SwiftPM does
///   not call the YAML files unhandled (no `exclude:` or `resources:` needed).
/// - The output is one file, `StorekeeperCatalogs.swift`, in the plugin's
///   work directory: SwiftPM needs a build command's outputs before it runs,
///   and the catalogs' names (which name the enums) are only known by
///   reading them, which the tool does.
/// - A catalog with errors fails the build: the tool prints the CLI's
///   diagnostics (`file:line:column: error: message [rule-id]`), which
///   SwiftPM shows and Xcode places on the line.
@main
struct StorekeeperCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = CodegenInputs(searchDirectories: [target.directoryURL])
        return [try Self.command(
            inputs: inputs, tool: context.tool(named: "storekeeper-codegen").url,
            workDirectory: context.pluginWorkDirectoryURL, sourceRoot: context.package.directoryURL,
            targetName: target.name)]
    }

    /// The one build command for a target.
    static func command(inputs: CodegenInputs, tool: URL, workDirectory: URL, sourceRoot: URL, targetName: String) throws -> Command {
        let output = workDirectory.appending(path: "StorekeeperCatalogs.swift")
        var arguments = ["--output", output.path(percentEncoded: false), "--source-root", sourceRoot.path(percentEncoded: false)]
        if let settings = inputs.settings {
            arguments += ["--settings", settings.path(percentEncoded: false)]
        }
        arguments.append("--")
        arguments += inputs.searchDirectories.map { $0.path(percentEncoded: false) }
        return .buildCommand(
            displayName: "Generating Swift from the catalogs of \(targetName)",
            executable: tool,
            arguments: arguments,
            inputFiles: inputs.files,
            outputFiles: [output])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same in an Xcode project: the catalogs are found in the folders that
/// hold the target's YAML files (add the catalog and its fragments to the
/// target). Written against Xcode's API but not built here, where there is
/// no Xcode (see docs/codegen.md).
extension StorekeeperCodegenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let yaml = target.inputFiles.map(\.url).filter(CodegenInputs.isYAML)
        let folders = CodegenInputs.outermost(Set(yaml.map { $0.deletingLastPathComponent() }))
        guard !folders.isEmpty else { return [] }
        let inputs = CodegenInputs(searchDirectories: folders)
        return [try Self.command(
            inputs: inputs, tool: context.tool(named: "storekeeper-codegen").url,
            workDirectory: context.pluginWorkDirectoryURL, sourceRoot: context.xcodeProject.directoryURL,
            targetName: target.displayName)]
    }
}
#endif
