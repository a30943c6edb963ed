import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Prints a report on standard output in one of validate's formats: the same
/// output for every command that reports on catalogs (validate, diff).
enum ReportOutput {
    /// Renders `report` as `format`; `rules` describe the rule ids for SARIF,
    /// and `reader` gives the text reporter its source lines.
    static func write(
        _ report: ValidationReport, format: Validate.Format, color: ColorChoice,
        rules: [RuleMetadata], reader: any SourceReader, limit: Int
    ) {
        switch format {
        case .json:
            StandardOutput.write(JSONReporter().render(report), what: "the report")
        case .sarif:
            let reporter = SARIFReporter(rules: rules, toolVersion: Storekeeper.configuration.version, workingDirectory: Environment.workingDirectory)
            StandardOutput.write(reporter.render(report), what: "the report")
        case .github:
            StandardOutput.write(GitHubReporter().render(report), what: "the report")
        case .text:
            let colors = color.resolve(isTerminal: StandardOutput.isTerminal, environment: Environment.current)
            let reporter = TextReporter(colors: colors, sourceLine: SourceLines.provider(for: report, reader: reader, limit: limit))
            // Printed as it is made: the whole text of a large report would take
            // several times the memory of its diagnostics.
            reporter.write(report) { StandardOutput.write($0, what: "the report") }
        }
    }
}
