import ArgumentParser
import StorekeeperTooling

/// Prints a report on standard output in one of validate's formats: the same
/// output for every command that reports on catalogs (validate, diff); or as
/// text on standard error for the commands whose output is something else.
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

    /// Renders `report` as text on standard error, where a command whose
    /// output is a file (compile, import, export) or a trace (simulate)
    /// says what it found.
    static func writeToStandardError(_ report: ValidationReport, color: ColorChoice, reader: any SourceReader, limit: Int) {
        let colors = color.resolve(isTerminal: StandardError.isTerminal, environment: Environment.current)
        let reporter = TextReporter(colors: colors, sourceLine: SourceLines.provider(for: report, reader: reader, limit: limit))
        StandardError.write(reporter.render(report))
    }
}
