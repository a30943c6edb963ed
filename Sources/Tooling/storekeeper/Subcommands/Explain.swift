public import ArgumentParser
import StorekeeperCommandLine
import StorekeeperTooling

/// `storekeeper explain CATALOG`: every product's plans, with where each step came from.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the plan each product follows in each transaction state, and why.",
        discussion: """
            CATALOG is a catalog (validated and compiled first) or a compiled policy (.json). \
            text is a table for people, each plan changed by a custom rule followed by the rule and \
            where it is; json is the same for tools; mermaid is a state diagram of each product's \
            transaction life, which GitHub renders in a ```mermaid block.

            Exit status: 0 when explained, 1 when the catalog has errors, 2 when the command could not run.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, mermaid
    }

    @Argument(help: "The catalog file, or a compiled policy (.json).")
    var catalog: String

    @Option(help: ArgumentHelp("Only this product.", valueName: "id"))
    var product: String?

    @Option(help: ArgumentHelp("Only this state: purchasing, deferred, purchased, failed or restored.", valueName: "state"))
    var state: TransactionState?

    @Option(help: "Output format: text, json or mermaid.")
    var format: Format = .text

    @Option(name: .customLong("config"), help: ArgumentHelp("The configuration to use instead of the storekeeper.yml found beside the catalog.", valueName: "path"))
    var configuration: String?

    @Option(help: "Colour in diagnostics: auto, always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let policy = try PolicySource(path: catalog, configuration: configuration, limits: limits, color: color).load().policy
        let explanation: PolicyExplanation
        do {
            explanation = try PolicyExplanation(policy, product: product, state: state)
        } catch {
            throw CommandFailure(message: error.description)
        }
        switch format {
        case .text: StandardOutput.write(ExplanationTextRenderer().render(explanation), what: "the explanation")
        case .json: StandardOutput.write(ExplanationJSONRenderer().render(explanation), what: "the explanation")
        case .mermaid:
            let diagram = ExplanationMermaidRenderer().render(explanation)
            StandardOutput.write(diagram, what: "the diagram")
            // Mermaid (and so GitHub) refuses diagrams over 50,000 characters by default.
            if diagram.utf8.count > 50_000 {
                StandardError.write("storekeeper: note: the diagram has \(diagram.utf8.count) characters; Mermaid renders at most 50,000 by default, so draw fewer products with --product\n")
            }
        }
        ProcessExit.now(0, keeping: policy)
    }
}

extension TransactionState: ExpressibleByArgument {}
