import StorekeeperCommandLine
import ArgumentParser
import StorekeeperTooling

/// `storekeeper rules [ID]`: the policy rules, from the same descriptions
/// that document and test them.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the policy rules, or show one with its rationale and examples.",
        discussion: "--format markdown writes docs/rules.md: \(RuleDocumentation.regenerateCommand)"
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    @Argument(help: "A rule id, to show that rule in full.")
    var id: String?

    @Option(help: "Output format: text, json or markdown.")
    var format: Format = .text

    func run() throws {
        var rules = RuleRegistry.descriptions
        if let id {
            guard let rule = rules.first(where: { $0.id == id }) else {
                throw CommandFailure(message: "no rule is named '\(id)'\(Suggestion.didYouMean(id, in: rules.map(\.id))) (`storekeeper rules` lists them all)")
            }
            rules = [rule]
        }
        switch format {
        case .text:
            StandardOutput.write(id == nil ? RuleDocumentation.list(rules) : RuleDocumentation.detail(rules[0]), what: "the rules")
        case .markdown:
            StandardOutput.write(RuleDocumentation.markdown(rules), what: "the rules")
        case .json:
            let values: [JSONValue] = rules.map { rule in
                [
                    "id": .string(rule.id),
                    "severity": .string(rule.severity.rawValue),
                    "summary": .string(rule.summary),
                    "rationale": .string(rule.rationale),
                ]
            }
            StandardOutput.write(JSONWriter().serialize(["version": 1, "rules": .array(values)]) + "\n", what: "the rules")
        }
    }
}
