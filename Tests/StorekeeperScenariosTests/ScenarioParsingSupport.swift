import Foundation
import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperRuntime
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperTestSupport
import Testing

/// Scenario texts parsed, example catalogs compiled, and the YAML blocks of
/// docs/simulate.md, for the parser and checker tests.
enum ScenarioParsing {
    /// The package root: three directories above this file.
    static let packageRoot = PackageRoot.path

    /// Parses a scenario text as `scenario.yaml`.
    static func parse(_ text: String, file: String = "scenario.yaml") -> ScenarioParseResult {
        ScenarioParser().parse(text, file: file)
    }

    /// Parses a text that must be valid; the test fails otherwise.
    static func scenario(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Scenario {
        let result = parse(text)
        #expect(result.diagnostics.isEmpty, "\(describe(result.diagnostics))", sourceLocation: sourceLocation)
        return try #require(result.scenario, sourceLocation: sourceLocation)
    }

    /// Parses `steps:` followed by these lines (indented by two spaces).
    static func steps(_ lines: String...) -> ScenarioParseResult {
        parse("steps:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n")
    }

    /// The actions of a valid text.
    static func actions(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [ScenarioAction] {
        try scenario(text, sourceLocation: sourceLocation).steps.map(\.action)
    }

    /// The errors of a text.
    static func errors(_ text: String) -> [Diagnostic] {
        let result = parse(text)
        #expect(result.scenario == nil)
        return result.diagnostics.filter { $0.severity == .error }
    }

    /// `line:column rule: message`, one per line, for failure messages.
    static func describe(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { "\($0.location.line):\($0.location.column) \($0.rule): \($0.message)" }.joined(separator: "\n")
    }

    /// An example catalog from `Catalogs/`, compiled with the plugin steps it names.
    static func policy(_ name: String) throws -> CompiledPolicy {
        var plugins = PluginRegistry()
        try plugins.register(NamedStep(name: "audit-log"))
        return try PolicyLoader(plugins: plugins).load(contentsOf: "\(packageRoot)/Catalogs/\(name)/catalog.yaml")
    }

    /// A scenario text checked against an example catalog: the parse must
    /// succeed; the checker's diagnostics are returned.
    static func check(_ text: String, against catalog: String = "rocket-racer", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [Diagnostic] {
        let scenario = try scenario(text, sourceLocation: sourceLocation)
        return ScenarioCheck.check(scenario, policy: try policy(catalog))
    }

    /// The fenced YAML blocks of docs/simulate.md, with the line each starts on.
    static func documentationBlocks() throws -> [(text: String, line: Int)] {
        let text = try String(contentsOfFile: "\(packageRoot)/docs/simulate.md", encoding: .utf8)
        var blocks: [(String, Int)] = []
        var current: [String]?
        var start = 0
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if current == nil, line.hasPrefix("```yaml") {
                current = []
                start = number + 2
            } else if let lines = current, line.hasPrefix("```") {
                blocks.append((lines.joined(separator: "\n") + "\n", start))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// A documentation block as a scenario: a list of steps gets `steps:` above it.
    static func asScenario(_ block: String) -> String {
        block.hasPrefix("- ") ? "steps:\n" + block.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") : block
    }
}

/// A plugin step that does nothing: what the example catalogs' custom steps
/// (`audit-log`) need to compile.
private struct NamedStep: SynchronousStepPlugin {
    let name: String
    func runSynchronously(_ context: StepContext, into effects: inout EffectBuffer) throws(StepFailure) {}
}

extension ScenarioParsing {
    /// `line:column`.
    static func at(_ location: StorekeeperDiagnostics.SourceLocation) -> String { "\(location.line):\(location.column)" }
}

extension ScenarioParsing {
    /// A catalog from its text, compiled; the test fails on errors.
    static func policy(catalog text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CompiledPolicy {
        let loaded = CatalogLoader(reader: InMemorySourceReader(["catalog.yaml": text])).load("catalog.yaml")
        #expect(!loaded.hasErrors, "\(describe(loaded.diagnostics))", sourceLocation: sourceLocation)
        let catalog = try #require(loaded.catalog, sourceLocation: sourceLocation)
        return try PolicyCompiler().compile(catalog)
    }
}
