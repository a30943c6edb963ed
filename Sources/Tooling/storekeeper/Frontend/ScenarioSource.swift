// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperCommandLine
import StorekeeperScenarios
import StorekeeperTooling

/// Gets `simulate`'s scenario: read, parsed and checked in one run (its own
/// problems, the catalog's names, the order of actions). Its problems are
/// printed to standard error; an error ends the process with exit status 2
/// (the session could not run).
enum ScenarioSource {
    /// The scenario at `path`, checked against `policy`.
    static func load(_ path: String, policy: CompiledPolicy, limits: YAMLLimits, color: ColorChoice) throws(CommandFailure) -> Scenario {
        try InputPathName.refuseIfNotUTF8(path)
        let reader = FileSystemReader()
        let bytes: [UInt8]
        do {
            bytes = try reader.read(path, limit: limits.maxFileSize)
        } catch {
            throw CommandFailure(message: "cannot read the scenario \(path): \(error)")
        }
        let result = ScenarioParser(limits: limits).parse(bytes, file: path, checkingAgainst: policy)
        let report = ValidationReport(diagnostics: result.diagnostics, filesChecked: 1)
        if !report.diagnostics.isEmpty {
            ReportOutput.writeToStandardError(report, color: color, reader: reader, limit: limits.maxFileSize)
        }
        guard let parsed = result.scenario, !report.fails(strict: false) else { ProcessExit.now(2, keeping: policy) }
        return parsed
    }
}
