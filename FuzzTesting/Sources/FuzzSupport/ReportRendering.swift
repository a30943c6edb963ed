import StorekeeperDiagnostics

/// Renders a report in the four formats `storekeeper validate` writes
/// (text, JSON, SARIF, GitHub), as the CLI's `ReportOutput` does, and checks
/// that the JSON ones read back.
public enum ReportRendering {
    /// Renders `report`; `files` are the sources the text report quotes
    /// (lossy UTF-8: the CLI's UTF-16 decoding is internal to the YAML layer).
    public static func renderAll(_ report: ValidationReport, rules: [RuleMetadata], files: [String: [UInt8]]) {
        let contents = files.mapValues { String(decoding: $0, as: UTF8.self) }
        for colors in [false, true] {
            _ = TextReporter(colors: colors, sourceLine: TextReporter.sourceLines(from: contents)).render(report)
        }
        FuzzCheck.requireJSON(JSONReporter().render(report), from: "JSONReporter")
        FuzzCheck.requireJSON(SARIFReporter(rules: rules, toolVersion: "fuzz", workingDirectory: "/work").render(report), from: "SARIFReporter")
        _ = GitHubReporter().render(report)
    }
}
