public import StorekeeperCatalog
import StorekeeperCompiler
import StorekeeperCore
import StorekeeperDiagnostics
public import StorekeeperRuntime
import StorekeeperSimulatedStore
public import StorekeeperYAML
import Foundation

/// Reads scenario files (docs/simulate.md, "The scenario file") with the
/// catalogs' YAML layer: the same limits, located errors, duplicate-key and
/// alias checks. Every problem is reported at the value to change, with what
/// would be right (the accepted values, the nearest spelling); a file with
/// any error gives no scenario.
///
/// ```swift
/// let result = ScenarioParser().load("Catalogs/rocket-racer/scenarios/guide.yaml", checkingAgainst: policy)
/// guard let scenario = result.scenario else { /* report result.diagnostics */ }
/// ```
///
/// Whether the products, steps, features and names a scenario mentions
/// exist is `ScenarioCheck`'s business: reading alone needs no catalog.
/// Given the catalog's policy (`load(_:checkingAgainst:)`), the parser
/// checks in the same run every action it could read, even in a file with
/// errors, so that one run reports every problem: the file's, those of the
/// catalog's names, and those of the order of actions where it is sure to
/// stop the session (`ScenarioOrderCheck`).
public struct ScenarioParser: Sendable {
    /// The most steps a scenario may have.
    public static let maxSteps = 10_000
    /// The largest seed: 2^63 − 1.
    public static let maxSeed = UInt64(Int64.max)
    /// The fastest simulated download speed, in megabytes (10^6 bytes) per second.
    public static let maxDownloadSpeed = 100_000

    /// Limits on the YAML read (size, depth, alias expansion).
    public var limits: YAMLLimits

    /// Creates a parser.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// The top-level keys, in the order the documentation lists them.
    static let keys = ["scenario", "seed", "start", "device", "user", "download-speed", "steps"]

    /// Reads and parses the scenario at `path`; a file that cannot be read,
    /// or is larger than `limits.maxFileSize`, is reported at its first line.
    public func load(_ path: String, reader: any SourceReader = FileSystemReader()) -> ScenarioParseResult {
        let bytes: [UInt8]
        do {
            bytes = try reader.read(path, limit: limits.maxFileSize)
        } catch .tooLarge(_, let size, let limit) {
            return ScenarioParseResult(scenario: nil, diagnostics: [Diagnostic(
                .error, rule: YAMLRuleID.limit,
                "the file is \(ByteCount(size)), over the limit of \(ByteCount(limit)); split the scenario in two, or raise the limit with --max-file-size",
                at: SourceLocation(file: path, line: 1, column: 1))])
        } catch {
            return ScenarioParseResult(scenario: nil, diagnostics: [Diagnostic(
                .error, rule: ScenarioRuleID.unreadable, "cannot read the scenario: \(error.description)",
                at: SourceLocation(file: path, line: 1, column: 1))])
        }
        return parse(bytes, file: path)
    }

    /// Reads, parses and checks the scenario at `path` against `policy`, all
    /// in one run: a file with errors of both kinds reports both.
    public func load(_ path: String, reader: any SourceReader = FileSystemReader(), checkingAgainst policy: CompiledPolicy) -> ScenarioParseResult {
        checked(load(path, reader: reader), against: policy)
    }

    /// Parses scenario bytes read from `file` and checks them against
    /// `policy` in the same run.
    public func parse(_ bytes: [UInt8], file: String, checkingAgainst policy: CompiledPolicy) -> ScenarioParseResult {
        checked(parse(bytes, file: file), against: policy)
    }

    /// `result` with the problems of what it could read against `policy`
    /// (and of the order of its actions) added; none when the file's own
    /// problems already reach the ceiling of what is listed.
    private func checked(_ result: ScenarioParseResult, against policy: CompiledPolicy) -> ScenarioParseResult {
        guard let draft = result.draft, result.isComplete else { return result }
        let ceiling = ScenarioCheck.limit - result.diagnostics.count
        guard ceiling > 0 else { return result }
        let problems = ScenarioCheck.check(draft.scenario, skipped: draft.skipped, policy: policy, checksOrder: true, ceiling: ceiling)
        let diagnostics = Diagnostic.normalized(result.diagnostics + problems)
        var checked = ScenarioParseResult(scenario: result.scenario, diagnostics: diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { checked.scenario = nil }
        checked.draft = draft
        return checked
    }

    /// Parses scenario text read from `file` (the name diagnostics give).
    public func parse(_ text: String, file: String) -> ScenarioParseResult {
        parse(Array(text.utf8), file: file)
    }

    /// Parses scenario bytes (UTF-8, or UTF-16 with a byte order mark) read from `file`.
    public func parse(_ bytes: [UInt8], file: String) -> ScenarioParseResult {
        let parsed = YAMLParser.parse(bytes, file: file, limits: limits)
        var context = YAMLDecodingContext.scenario()
        context.diagnostics.append(contentsOf: parsed.diagnostics)
        var scenario: Scenario?
        var skipped: [SkippedStep] = []
        if let root = parsed.document?.root {
            scenario = decode(root, file: file, skipped: &skipped, context: &context)
        } else if context.diagnostics.errorCount == 0 {
            context.report(.error, ScenarioRuleID.missing, "the scenario file is empty; it needs at least `steps:` with one action, such as `steps: [launch]`",
                           at: SourceRange(start: SourceLocation(file: file, line: 1, column: 1)))
        }
        let diagnostics = Diagnostic.normalized(context.finished(file: file))
        let valid = context.diagnostics.errorCount == 0 && context.placeholdersMet == 0 && !diagnostics.contains { $0.severity == .error }
        var result = ScenarioParseResult(scenario: valid ? scenario : nil, diagnostics: diagnostics)
        result.draft = scenario.map { ($0, skipped) }
        result.isComplete = context.diagnostics.leftOutCount == 0
        return result
    }

    // MARK: The top level

    private func decode(_ root: YAMLNode, file: String, skipped: inout [SkippedStep], context: inout YAMLDecodingContext) -> Scenario? {
        guard root.kind == .mapping else {
            if !context.isPlaceholder(root) {
                context.error(ScenarioRuleID.type, "a scenario file is a mapping of keys (\(Self.keys.joined(separator: ", "))), not \(root.kind)", at: root)
            }
            return nil
        }
        let fields = context.fields(of: root, in: "a scenario", known: Self.keys)
        var scenario = Scenario(file: file, steps: [])
        if let pair = fields["scenario"], let title = context.string(pair.value, "'scenario'", example: "A purchase and a restore", nonEmpty: true) {
            scenario.title = title.value
        }
        if let pair = fields["seed"], let seed = context.wholeNumber(pair.value, "'seed'", in: 0...Self.maxSeed) {
            scenario.seed = seed.value
        }
        if let pair = fields["start"], let start = Self.start(pair.value, context: &context) {
            scenario.start = start
        }
        if let pair = fields["device"], let device = context.name(pair.value, "the device name", example: "phone") {
            scenario.device = device.value
        }
        if let pair = fields["user"], let user = context.string(pair.value, "'user'", example: "player-8f14e45f", nonEmpty: true) {
            scenario.user = user.value
        }
        if let pair = fields["download-speed"],
           let speed = context.integer(pair.value, "'download-speed' (megabytes per second)", in: 1...Self.maxDownloadSpeed) {
            scenario.downloadBytesPerSecond = Int64(speed.value) * 1_000_000
        }
        if let pair = fields["steps"] {
            scenario.steps = steps(pair.value, skipped: &skipped, context: &context)
        } else {
            context.missing("steps", in: root, of: "this scenario", example: "[launch]")
        }
        return scenario
    }

    /// `start: 2026-01-01T09:00:00Z`.
    private static func start(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Date? {
        guard let text = context.text(node, "'start'", example: "2026-01-01T09:00:00Z") else { return nil }
        switch ScenarioDateParser.parse(text) {
        case .success(let date):
            return date
        case .failure(let problem):
            context.error(ScenarioRuleID.value, "'start' '\(text)' \(problem.explanation)", at: node)
            return nil
        }
    }

    /// `steps:`: at least one action, at most `maxSteps`. Actions read in
    /// part are kept (the errors keep them from running); items that give
    /// no action go to `skipped`.
    private func steps(_ node: YAMLNode, skipped: inout [SkippedStep], context: inout YAMLDecodingContext) -> [ScenarioStep] {
        guard context.expectSequence(node, "'steps'", example: "[launch, quit]") else { return [] }
        let items = node.items
        guard !items.isEmpty else {
            context.error(ScenarioRuleID.missing, "'steps' is empty; list at least one action, such as `- launch`", at: node)
            return []
        }
        var steps: [ScenarioStep] = []
        steps.reserveCapacity(min(items.count, Self.maxSteps))
        for (index, item) in items.enumerated() {
            guard index < Self.maxSteps else {
                context.error(ScenarioRuleID.limit, "a scenario has at most \(Self.maxSteps) steps, and this one has \(items.count); this is step \(index + 1). Split it into several scenarios", at: item)
                break
            }
            if let action = ScenarioActionDecoder.decode(item, context: &context) {
                steps.append(ScenarioStep(action, at: item.location))
            } else {
                skipped.append(SkippedStep(item))
            }
        }
        return steps
    }
}
