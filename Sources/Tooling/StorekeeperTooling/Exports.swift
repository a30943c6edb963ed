// The front ends (the CLI, storekeeper-codegen, and storekeeper-server's --policy and the server's
// random lives, in the server package) are argument parsing and output over these workflows, and
// they name the types of the layers below them: a report's diagnostics and the catalogs it read,
// YAML's limits, the rules and their documentation, the compiled policy and its explanation, a
// diff, an Xcode file, the schema, the generated Swift, and the platform's output files and locks.
// They import this module for all of it, and none of the layers.
//
// Not the scenarios (StorekeeperScenarios): they run the simulated store over the queue, which
// links SQLite, and storekeeper-codegen, which links this module, must not.
@_exported public import StorekeeperCatalog
@_exported public import StorekeeperCodegen
@_exported public import StorekeeperCompiler
@_exported public import StorekeeperCore
@_exported public import StorekeeperDiagnostics
@_exported public import StorekeeperDiff
@_exported public import StorekeeperJSON
@_exported public import StorekeeperPlatform
@_exported public import StorekeeperRules
@_exported public import StorekeeperRuntime
@_exported public import StorekeeperSchema
@_exported public import StorekeeperXcodeConfig
@_exported public import StorekeeperYAML
