// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperCommandLine
import StorekeeperScenarios
import StorekeeperTooling

/// Gets a compiled policy for `compile`, `explain` and `simulate` through the
/// façade's one loader (`Workflows.loadPolicy`): from a catalog, validated as
/// `storekeeper validate` would (configuration and suppressions included) and
/// then compiled, or from a compiled policy's JSON. Problems are printed to standard error; a catalog with errors, or a
/// damaged policy, stops the command with `invalidStatus`.
struct PolicySource {
    var path: String
    var configuration: String?
    var limits: LimitOptions
    var color: ColorChoice
    /// The exit status when the catalog has errors or the policy cannot be
    /// read: 1 for commands whose output is about the catalog (`compile`,
    /// `explain`), 2 for `simulate`, whose 1 means an expectation failed and
    /// whose inputs being wrong means the session could not run.
    var invalidStatus: Int32 = 1
    /// Steps the app registers (storekeeper.yml's `steps`) run as stand-ins
    /// that succeed (`simulate`), instead of being declared only.
    var standInSteps = false

    /// What was loaded: the policy, and the files read to make it (a
    /// command must not write over them).
    struct Loaded {
        var policy: CompiledPolicy
        var inputs: [String]
        var wasCompiled: Bool
    }

    /// The policy, or the process ends (`invalidStatus`: the catalog has errors; 2: it cannot be read).
    func load() throws(CommandFailure) -> Loaded {
        try InputPathName.refuseIfNotUTF8(path)
        if let configuration { try InputPathName.refuseIfNotUTF8(configuration) }
        let loader = CatalogLoader(reader: FileSystemReader(), limits: limits.limits)
        let options = WorkflowOptions(reader: loader.reader, limits: loader.limits, configuration: configuration)
        let loaded: PolicyInput
        do {
            loaded = try Workflows.loadPolicy(path, options: options, steps: standInSteps ? .registered { StandInStep(name: $0) } : .declared)
        } catch .damagedPolicy(_, let error) {
            fail(error)
        } catch {
            throw CommandFailure(message: error.description)
        }
        switch loaded {
        case .compiledPolicy(let policy):
            return Loaded(policy: policy, inputs: [path], wasCompiled: true)
        case .catalog(let compilation):
            let report = compilation.report
            if !report.diagnostics.isEmpty { ReportOutput.writeToStandardError(report, color: color, reader: loader.reader, limit: loader.limits.maxFileSize) }
            guard let policy = compilation.policy else { ProcessExit.now(invalidStatus, keeping: compilation) }
            return Loaded(policy: policy, inputs: compilation.validation.inputs, wasCompiled: false)
        }
    }

    /// Prints why the policy cannot be read and ends the process with `invalidStatus`.
    private func fail(_ error: PolicyLoadError) -> Never {
        let location = if let line = error.line, let column = error.column { "\(path):\(line):\(column)" } else { path }
        let message = error.line == nil ? error.description : error.message
        StandardError.write("\(location): error: \(message)\n")
        ProcessExit.now(invalidStatus, keeping: nil as JSONValue?)
    }
}
