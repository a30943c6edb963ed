import StorekeeperChildProcess

/// `storekeeper-benchmark run`: generates the catalogs, then times `storekeeper validate`, with and
/// without its policy rules, and `storekeeper compile`, against the bare scan on each, in child processes.
///
/// For each size, the four programs of ``MeasuredProgram`` run one after the other, in rounds: a
/// warm-up round first (which fills the page cache, checks that the catalog validates clean and is not
/// counted), then ``RunOptions/repetitions`` measured rounds. The order changes from round to round (see
/// ``MeasuredProgram/order(inRound:)``), so that noise from the machine, and any advantage of going
/// first or last, falls on every program alike.
struct BenchmarkDriver: Sendable {
    /// The arguments that follow the catalog's path in every validation.
    static let validateOptions = ["--format", "json", "--max-file-size", "512MiB"]
    /// The arguments that follow the catalog's path in every format-only validation: the same, without
    /// the policy rules.
    static let formatOnlyOptions = ["--no-policy"] + validateOptions
    /// The arguments that follow the catalog's path and `--output POLICY` in every compilation: the same
    /// size limit as the validations (compile prints no report, so it takes no `--format`).
    static let compileOptions = ["--max-file-size", "512MiB"]

    /// The settings of this run.
    let options: RunOptions
    /// This benchmark's own executable, which runs the bare scans.
    let benchmarkExecutable: String
    /// The `storekeeper` executable under measurement.
    let storekeeperExecutable: String

    /// Prepares a run, finding both executables.
    ///
    /// - Throws: ``BenchmarkError`` when either cannot be found or executed.
    init(options: RunOptions) throws {
        self.options = options
        benchmarkExecutable = try FileSystem.currentExecutablePath()
        storekeeperExecutable = options.storekeeper
            ?? FileSystem.directory(of: benchmarkExecutable) + "/storekeeper"
        guard FileSystem.isExecutable(storekeeperExecutable) else {
            throw BenchmarkError("""
                no executable storekeeper at \(storekeeperExecutable): build it in the same configuration \
                (swift build -c release --product storekeeper) or name one with --storekeeper PATH
                """)
        }
    }

    /// The scan of `path`, as a child process.
    func scan(_ path: String) -> ChildProcess {
        ChildProcess(benchmarkExecutable, ["scan", path])
    }

    /// The format-only validation of `path` (no policy rules), as a child process.
    func formatOnlyValidation(_ path: String) -> ChildProcess {
        ChildProcess(storekeeperExecutable, ["validate", path] + Self.formatOnlyOptions)
    }

    /// The validation of `path`, format and policy rules, as a child process.
    func validation(_ path: String) -> ChildProcess {
        ChildProcess(storekeeperExecutable, ["validate", path] + Self.validateOptions)
    }

    /// The compilation of `path` into the policy file ``policyPath(for:)``, as a child process.
    func compilation(_ path: String) -> ChildProcess {
        ChildProcess(storekeeperExecutable, ["compile", path, "--output", Self.policyPath(for: path)] + Self.compileOptions)
    }

    /// Where the compilation of the catalog at `path` writes its policy: beside the catalog, in the
    /// output directory, which `compile` needs to be writable (it writes a temporary file there first).
    static func policyPath(for path: String) -> String {
        (path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path) + ".policy.json"
    }

    /// `program` run on `path`, as a child process.
    func process(_ program: MeasuredProgram, on path: String) -> ChildProcess {
        switch program {
        case .scan: scan(path)
        case .formatOnly: formatOnlyValidation(path)
        case .validation: validation(path)
        case .compilation: compilation(path)
        }
    }

    /// Generates and measures every size, in the order given, reporting progress on standard error.
    ///
    /// - Returns: One result for each size.
    /// - Throws: ``BenchmarkError`` when a catalog cannot be written, when a scan, a validation or a
    ///   compilation cannot be run or does not exit with status 0, or when a validation reports any
    ///   diagnostic on the generated catalog.
    func run() throws -> [SizeResult] {
        try FileSystem.createDirectories(options.outputDirectory)
        var results: [SizeResult] = []
        for size in options.sizes {
            let path = options.outputDirectory + "/catalog-\(size).yaml"
            StandardError.print("generating \(NumberFormatting.grouped(size)) products into \(path)")
            try CatalogGenerator(productCount: size).writeFile(at: path)
            results.append(try measure(products: size, path: path))
        }
        return results
    }

    private func measure(products: Int, path: String) throws -> SizeResult {
        let commandLines = MeasuredProgram.allCases.map { process($0, on: path).commandLine }
        StandardError.print("  warm-up: " + commandLines.joined(separator: "; "))
        _ = try checked(scan(path))
        try warmUp(formatOnlyValidation(path), of: path, reportPath: path + ".format-only.json")
        try warmUp(validation(path), of: path, reportPath: path + ".validate.json")
        let policyPath = Self.policyPath(for: path)
        try FileSystem.remove(policyPath)
        _ = try checked(compilation(path))
        let policyBytes = try FileSystem.size(of: policyPath)

        var scans: [ChildOutcome] = []
        var formatOnlyValidations: [ChildOutcome] = []
        var validations: [ChildOutcome] = []
        var compilations: [ChildOutcome] = []
        for round in 0..<options.repetitions {
            let order = MeasuredProgram.order(inRound: round)
            for program in order {
                let measurement = try checked(process(program, on: path))
                switch program {
                case .scan: scans.append(measurement)
                case .formatOnly: formatOnlyValidations.append(measurement)
                case .validation: validations.append(measurement)
                case .compilation: compilations.append(measurement)
                }
            }
            let scanned = scans[round]
            let formatChecked = formatOnlyValidations[round]
            let validated = validations[round]
            let compiled = compilations[round]
            StandardError.print("""
                  round \(round + 1)/\(options.repetitions) \
                (\(order.map(\.description).joined(separator: ", "))): \
                scan \(NumberFormatting.fixed(scanned.milliseconds, decimals: 1)) ms, \
                format only \(NumberFormatting.fixed(formatChecked.milliseconds, decimals: 1)) ms \
                (\(NumberFormatting.fixed(Double(formatChecked.peakResidentKiB) / 1024, decimals: 1)) MiB), \
                validate \(NumberFormatting.fixed(validated.milliseconds, decimals: 1)) ms \
                (\(NumberFormatting.fixed(Double(validated.peakResidentKiB) / 1024, decimals: 1)) MiB), \
                compile \(NumberFormatting.fixed(compiled.milliseconds, decimals: 1)) ms \
                (\(NumberFormatting.fixed(Double(compiled.peakResidentKiB) / 1024, decimals: 1)) MiB)
                """)
        }
        return SizeResult(
            products: products, fileBytes: try FileSystem.size(of: path), policyBytes: policyBytes, scans: scans,
            formatOnlyValidations: formatOnlyValidations, validations: validations, compilations: compilations)
    }

    /// Generates and measures every catalog of ``RunOptions/typoSizes``, in which every product writes
    /// `prise:` for `price:`: a warm-up scan and validation, then ``RunOptions/repetitions`` rounds of
    /// the two, the first going first in even rounds and second in odd ones.
    ///
    /// - Returns: One result for each size.
    /// - Throws: ``BenchmarkError`` when a catalog cannot be written, when a scan does not exit with
    ///   status 0, or when a validation does not exit with status 1 (the catalog has errors).
    func runTypos() throws -> [TypoResult] {
        try FileSystem.createDirectories(options.outputDirectory)
        var results: [TypoResult] = []
        for size in options.typoSizes {
            let path = options.outputDirectory + "/catalog-\(size)-prise.yaml"
            StandardError.print("generating \(NumberFormatting.grouped(size)) products, each with prise: for price:, into \(path)")
            try CatalogGenerator(productCount: size, misspellsPrice: true).writeFile(at: path)
            StandardError.print("  warm-up: \(scan(path).commandLine); \(validation(path).commandLine)")
            _ = try checked(scan(path))
            _ = try checked(validation(path), status: 1)
            var scans: [ChildOutcome] = []
            var validations: [ChildOutcome] = []
            for round in 0..<options.repetitions {
                if round % 2 == 0 {
                    scans.append(try checked(scan(path)))
                    validations.append(try checked(validation(path), status: 1))
                } else {
                    validations.append(try checked(validation(path), status: 1))
                    scans.append(try checked(scan(path)))
                }
                StandardError.print("""
                      round \(round + 1)/\(options.repetitions): \
                    scan \(NumberFormatting.fixed(scans[round].milliseconds, decimals: 1)) ms, \
                    validate \(NumberFormatting.fixed(validations[round].milliseconds, decimals: 1)) ms
                    """)
            }
            results.append(TypoResult(products: size, fileBytes: try FileSystem.size(of: path), scans: scans, validations: validations))
        }
        return results
    }

    /// Runs `process` once and returns its measurement, if it exited with `status` (0 unless said).
    private func checked(_ process: ChildProcess, status: Int32) throws -> ChildOutcome {
        let measurement = try process.measure()
        guard measurement.termination == .exited(status) else {
            throw BenchmarkError("""
                \(process.commandLine) \(measurement.termination), not with status \(status); run it by hand to see why
                """)
        }
        return measurement
    }

    /// Runs `process` once and returns its measurement, if it exited with status 0.
    private func checked(_ process: ChildProcess) throws -> ChildOutcome {
        let measurement = try process.measure()
        guard measurement.termination == .exited(0) else {
            throw BenchmarkError("""
                \(process.commandLine) \(measurement.termination); run it by hand to see why
                """)
        }
        return measurement
    }

    /// Runs the validation `process` of the catalog at `path` once, unmeasured, keeping its JSON report
    /// in `reportPath`, and checks that it exited with status 0 and reported nothing: a generated catalog
    /// must validate clean, or the benchmark would time the formatting of diagnostics too.
    private func warmUp(_ process: ChildProcess, of path: String, reportPath: String) throws {
        var reporting = process
        reporting.standardOutput = .file(reportPath)
        let measurement = try reporting.measure()
        switch measurement.termination {
        case .exited(0) where ValidationOutput.listsNoDiagnostic(try FileSystem.readAll(reportPath)):
            return
        case .exited(0), .exited(1):
            let textCommand = [storekeeperExecutable, "validate", path, "--format", "text", "--max-file-size", "512MiB"]
            throw BenchmarkError("""
                \(process.commandLine) \(measurement.termination) and reported diagnostics on the generated \
                catalog, which must validate clean (its report is in \(reportPath)); see them with: \
                \(textCommand.map(ShellQuoting.quote).joined(separator: " "))
                """)
        default:
            throw BenchmarkError("""
                \(process.commandLine) \(measurement.termination); run it by hand to see why
                """)
        }
    }
}
