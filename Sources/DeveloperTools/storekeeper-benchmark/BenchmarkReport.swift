/// The Markdown that `storekeeper-benchmark run` prints: the command, the machine, the tables of figures
/// (against the bare scan, then the policy rules against format-only validation, then compilation against
/// validation) and the targets, ready to paste into `docs/performance.md`.
struct BenchmarkReport: Sendable {
    /// The catalog size at which the targets are read: validation may take at most ``ratioTarget`` times
    /// the bare scan, at most ``policyRatioTarget`` times format-only validation, and must peak under
    /// ``peakTargetMiB``; compilation may take at most ``compileRatioTarget`` times validation.
    static let referenceProducts = 10_000
    /// The most that validation may take, as a multiple of the bare scan.
    static let ratioTarget = 1.5
    /// The most that validation may take, as a multiple of format-only validation: the policy rules add
    /// at most 25%.
    static let policyRatioTarget = 1.25
    /// The most that compilation may take, as a multiple of validation: compiling adds at most 20%.
    static let compileRatioTarget = 1.2
    /// Validation's peak resident set size must stay under this many MiB.
    static let peakTargetMiB = 40.0

    /// The benchmark's command line, as typed.
    let commandLine: String
    /// The validation's command line, with `FILE` for the catalog.
    let validateCommand: String
    /// The format-only validation's command line (`--no-policy`), with `FILE` for the catalog.
    let formatOnlyCommand: String
    /// The compilation's command line, with `FILE` for the catalog and `POLICY` for the policy it writes.
    let compileCommand: String
    /// Where and when it ran.
    let host: HostDescription
    /// The number of measured rounds per size.
    let repetitions: Int
    /// The figures, one per size.
    let results: [SizeResult]
    /// The figures of the catalogs whose every product writes `prise:` for `price:`, one per size.
    var typoResults: [TypoResult] = []

    /// The report, ending with a newline.
    var markdown: String {
        var lines = [
            "## Validation against libyaml's bare scan",
            "",
            "Measured \(host.date) on \(host.machine) with \(host.cores) cores (libyaml \(host.libyamlVersion)), by:",
            "",
            "```sh",
            commandLine,
            "```",
            "",
            "Each size: one warm-up, then \(repetitions) rounds of `storekeeper-benchmark scan FILE`, "
                + "`\(formatOnlyCommand)` (format only), `\(validateCommand)` (format and policy rules) and "
                + "`\(compileCommand)` (validation, then the dispatch table, written as JSON), "
                + "in an order that rotates from round to round, each run a new process. Times are medians of the "
                + "wall time from spawn to exit; each ratio is the median of the per-round ratios; peak RSS is the "
                + "largest `ru_maxrss`.",
            "",
            "| products | file | bare scan | validate | validate / scan | validate peak RSS | scan peak RSS |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let cells = [
                NumberFormatting.grouped(result.products),
                "\(NumberFormatting.fixed(Double(result.fileBytes) / 1_048_576, decimals: 1)) MiB "
                    + "(\(NumberFormatting.grouped(result.fileBytes)) bytes)",
                "\(NumberFormatting.fixed(result.scanMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.validateMilliseconds, decimals: 1)) ms",
                NumberFormatting.fixed(result.ratio, decimals: 2),
                "\(NumberFormatting.fixed(result.validatePeakMiB, decimals: 1)) MiB",
                "\(NumberFormatting.fixed(result.scanPeakMiB, decimals: 1)) MiB",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines += policyTable
        lines += compileTable
        lines += linearity
        lines += targets
        lines += typoTable
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table of the catalogs in which every product makes the same mistake, against the bare scan
    /// of the same file, with the growth of the time per product from the smallest to the largest.
    private var typoTable: [String] {
        guard !typoResults.isEmpty else { return [] }
        var lines = [
            "",
            "## The same mistake in every product",
            "",
            "Every product writes `prise:` for `price:` (so each has an `unknown-key` error, and no "
                + "`missing-key` error for `price`, which the typo stands for). Each size: one warm-up, then "
                + "\(repetitions) rounds of the bare scan and `\(validateCommand)` (exit status 1), alternating "
                + "which goes first.",
            "",
            "| products | file | bare scan | validate | validate / scan | µs a product | validate peak RSS |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in typoResults {
            let cells = [
                NumberFormatting.grouped(result.products),
                "\(NumberFormatting.fixed(Double(result.fileBytes) / 1_048_576, decimals: 1)) MiB",
                "\(NumberFormatting.fixed(result.scanMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.validateMilliseconds, decimals: 1)) ms",
                NumberFormatting.fixed(result.ratio, decimals: 2),
                NumberFormatting.fixed(result.validateMicrosecondsPerProduct, decimals: 2),
                "\(NumberFormatting.fixed(result.validatePeakMiB, decimals: 1)) MiB",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        if let smallest = typoResults.min(by: { $0.products < $1.products }),
           let largest = typoResults.max(by: { $0.products < $1.products }),
           largest.products > smallest.products {
            let growth: Double = largest.validateMicrosecondsPerProduct / smallest.validateMicrosecondsPerProduct
            let quadratic: Double = Double(largest.products) / Double(smallest.products)
            let sizes = "\(NumberFormatting.grouped(largest.products)) products take"
            let times = "**\(NumberFormatting.fixed(growth, decimals: 2))** times as long a product as"
            let reference = "\(NumberFormatting.grouped(smallest.products)) (1.00 is exactly linear; quadratic work would give"
            lines.append("Linearity: \(sizes) \(times) \(reference) \(NumberFormatting.fixed(quadratic, decimals: 2))).")
            lines.append("")
        }
        return lines
    }

    /// The table of what the policy rules cost: validation against format-only validation, per size.
    private var policyTable: [String] {
        var lines = [
            "Policy rules: validation against format-only validation (`--no-policy`), in the same rounds.",
            "",
            "| products | format only | validate | validate / format only | format-only peak RSS | validate peak RSS |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let cells = [
                NumberFormatting.grouped(result.products),
                "\(NumberFormatting.fixed(result.formatOnlyMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.validateMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.policyRatio, decimals: 2)) (\(Self.percentAdded(result.policyRatio)))",
                "\(NumberFormatting.fixed(result.formatOnlyPeakMiB, decimals: 1)) MiB",
                "\(NumberFormatting.fixed(result.validatePeakMiB, decimals: 1)) MiB",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        return lines
    }

    /// The table of what compiling costs: compilation against validation, per size.
    private var compileTable: [String] {
        var lines = [
            "Compiling: `compile` (validation, dispatch table, JSON written to a file) against `validate`, in the same rounds.",
            "",
            "| products | validate | compile | compile / validate | policy JSON | compile peak RSS |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let cells = [
                NumberFormatting.grouped(result.products),
                "\(NumberFormatting.fixed(result.validateMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.compileMilliseconds, decimals: 1)) ms",
                "\(NumberFormatting.fixed(result.compileRatio, decimals: 2)) (\(Self.percentAdded(result.compileRatio)))",
                "\(NumberFormatting.fixed(Double(result.policyBytes) / 1_048_576, decimals: 1)) MiB "
                    + "(\(NumberFormatting.grouped(result.policyBytes)) bytes)",
                "\(NumberFormatting.fixed(result.compilePeakMiB, decimals: 1)) MiB",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        return lines
    }

    /// What a ratio adds, in percent with its sign, such as `+12%` for 1.12.
    private static func percentAdded(_ ratio: Double) -> String {
        let percent = NumberFormatting.fixed((ratio - 1) * 100, decimals: 0)
        return (percent.hasPrefix("-") ? percent : "+" + percent) + "%"
    }

    /// The sentence on growth: validation time per product at the largest size over that at the smallest.
    private var linearity: [String] {
        guard let smallest = results.min(by: { $0.products < $1.products }),
              let largest = results.max(by: { $0.products < $1.products }),
              largest.products > smallest.products
        else { return [] }
        let growth = largest.validateMicrosecondsPerProduct / smallest.validateMicrosecondsPerProduct
        return [
            "Linearity: validation takes "
                + "\(NumberFormatting.fixed(smallest.validateMicrosecondsPerProduct, decimals: 2)) µs a product at "
                + "\(NumberFormatting.grouped(smallest.products)) products and "
                + "\(NumberFormatting.fixed(largest.validateMicrosecondsPerProduct, decimals: 2)) µs at "
                + "\(NumberFormatting.grouped(largest.products)): "
                + "**\(NumberFormatting.fixed(growth, decimals: 2))** times as much (1.00 is exactly linear).",
            "",
        ]
    }

    /// The targets of the issue that the figures can decide.
    private var targets: [String] {
        var lines: [String] = []
        if let reference = results.first(where: { $0.products == Self.referenceProducts }) {
            lines.append(
                "- Validating \(NumberFormatting.grouped(reference.products)) products takes at most "
                    + "\(NumberFormatting.fixed(Self.ratioTarget, decimals: 1)) times the bare scan: "
                    + "\(NumberFormatting.fixed(reference.ratio, decimals: 2)), "
                    + (reference.ratio <= Self.ratioTarget ? "met." : "**not met**."))
            lines.append(
                "- The policy rules add at most "
                    + "\(NumberFormatting.fixed((Self.policyRatioTarget - 1) * 100, decimals: 0))% to validating "
                    + "\(NumberFormatting.grouped(reference.products)) products: "
                    + "\(NumberFormatting.fixed(reference.policyRatio, decimals: 2)) times format-only validation "
                    + "(\(Self.percentAdded(reference.policyRatio))), "
                    + (reference.policyRatio <= Self.policyRatioTarget ? "met." : "**not met**."))
            lines.append(
                "- Compiling \(NumberFormatting.grouped(reference.products)) products adds at most "
                    + "\(NumberFormatting.fixed((Self.compileRatioTarget - 1) * 100, decimals: 0))% to validation: "
                    + "\(NumberFormatting.fixed(reference.compileRatio, decimals: 2)) times validation "
                    + "(\(Self.percentAdded(reference.compileRatio))), "
                    + (reference.compileRatio <= Self.compileRatioTarget ? "met." : "**not met**."))
        }
        // The memory target is read at the reference size: at 100,000 products
        // the file alone is 44 MiB, and the bare scan holding it peaks above 40.
        if let reference = results.first(where: { $0.products == Self.referenceProducts }) {
            lines.append(
                "- Validation peaks under \(NumberFormatting.fixed(Self.peakTargetMiB, decimals: 0)) MiB at "
                    + "\(NumberFormatting.grouped(reference.products)) products: "
                    + "\(NumberFormatting.fixed(reference.validatePeakMiB, decimals: 1)) MiB, "
                    + (reference.validatePeakMiB < Self.peakTargetMiB ? "met." : "**not met**."))
        }
        for result in results where result.products != Self.referenceProducts {
            lines.append(
                "- Peak memory at \(NumberFormatting.grouped(result.products)) products, for information: "
                    + "\(NumberFormatting.fixed(result.validatePeakMiB, decimals: 1)) MiB, against "
                    + "\(NumberFormatting.fixed(result.scanPeakMiB, decimals: 1)) MiB for the bare scan of the same file.")
            lines.append(
                "- Policy rules at \(NumberFormatting.grouped(result.products)) products, for information: "
                    + "\(NumberFormatting.fixed(result.policyRatio, decimals: 2)) times format-only validation "
                    + "(\(Self.percentAdded(result.policyRatio))).")
            lines.append(
                "- Compiling at \(NumberFormatting.grouped(result.products)) products, for information: "
                    + "\(NumberFormatting.fixed(result.compileRatio, decimals: 2)) times validation "
                    + "(\(Self.percentAdded(result.compileRatio))).")
        }
        return lines.isEmpty ? [] : ["Targets:", ""] + lines
    }
}
