/// `storekeeper-benchmark run`: generates the catalogs, then times `storekeeper validate` against the
/// bare scan on each, in child processes.
///
/// For each size, the two programs run one after the other, in pairs: a warm-up pair first (which fills
/// the page cache and is not counted), then ``RunOptions/repetitions`` measured pairs. Within a pair the
/// order alternates (scan first, then validation first), so that noise from the machine, and any
/// advantage of going first or second, falls on both sides alike.
struct BenchmarkDriver: Sendable {
    /// The arguments that follow the catalog's path in every validation.
    static let validateOptions = ["--format", "json", "--max-file-size", "512MiB"]

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

    /// The validation of `path`, as a child process.
    func validation(_ path: String) -> ChildProcess {
        ChildProcess(storekeeperExecutable, ["validate", path] + Self.validateOptions)
    }

    /// Generates and measures every size, in the order given, reporting progress on standard error.
    ///
    /// - Returns: One result for each size.
    /// - Throws: ``BenchmarkError`` when a catalog cannot be written, or a scan or a validation cannot
    ///   be run or does not exit with status 0.
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
        let scanProcess = scan(path)
        let validationProcess = validation(path)
        StandardError.print("  warm-up: \(scanProcess.commandLine); \(validationProcess.commandLine)")
        _ = try checked(scanProcess)
        _ = try checked(validationProcess)

        var scans: [ChildProcess.Measurement] = []
        var validations: [ChildProcess.Measurement] = []
        for pair in 0..<options.repetitions {
            if pair % 2 == 0 {
                scans.append(try checked(scanProcess))
                validations.append(try checked(validationProcess))
            } else {
                validations.append(try checked(validationProcess))
                scans.append(try checked(scanProcess))
            }
            let scanned = scans[pair]
            let validated = validations[pair]
            StandardError.print("""
                  pair \(pair + 1)/\(options.repetitions): \
                scan \(NumberFormatting.fixed(scanned.milliseconds, decimals: 1)) ms, \
                validate \(NumberFormatting.fixed(validated.milliseconds, decimals: 1)) ms, \
                \(NumberFormatting.fixed(Double(validated.peakResidentKiB) / 1024, decimals: 1)) MiB
                """)
        }
        return SizeResult(
            products: products, fileBytes: try FileSystem.size(of: path), scans: scans, validations: validations)
    }

    /// Runs `process` once and returns its measurement, if it exited with status 0.
    private func checked(_ process: ChildProcess) throws -> ChildProcess.Measurement {
        let measurement = try process.run()
        guard measurement.termination == .exited(0) else {
            throw BenchmarkError("""
                \(process.commandLine) \(measurement.termination); run it by hand to see why
                """)
        }
        return measurement
    }
}
