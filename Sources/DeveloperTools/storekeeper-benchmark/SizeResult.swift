import StorekeeperChildProcess

/// The measurements of one catalog size, and what the report makes of them.
///
/// The four lists hold one measurement per round, in order: the measurements at the same index come
/// from the same round. The warm-up is not among them.
struct SizeResult: Sendable {
    /// The number of products in the catalog.
    let products: Int
    /// The catalog's size in bytes.
    let fileBytes: Int
    /// The size in bytes of the policy that `storekeeper compile` wrote (indented JSON).
    let policyBytes: Int
    /// The measured bare scans.
    let scans: [ChildOutcome]
    /// The measured format-only validations (`storekeeper validate --no-policy`).
    let formatOnlyValidations: [ChildOutcome]
    /// The measured validations, format and policy rules (`storekeeper validate`).
    let validations: [ChildOutcome]
    /// The measured compilations (`storekeeper compile FILE --output POLICY`).
    let compilations: [ChildOutcome]

    /// The median wall time of the bare scan, in milliseconds.
    var scanMilliseconds: Double {
        Statistics.median(scans.map(\.milliseconds))
    }

    /// The median wall time of format-only validation, in milliseconds.
    var formatOnlyMilliseconds: Double {
        Statistics.median(formatOnlyValidations.map(\.milliseconds))
    }

    /// The median wall time of validation, in milliseconds.
    var validateMilliseconds: Double {
        Statistics.median(validations.map(\.milliseconds))
    }

    /// The median wall time of compilation, in milliseconds.
    var compileMilliseconds: Double {
        Statistics.median(compilations.map(\.milliseconds))
    }

    /// How many times the bare scan validation takes: the median of the ratios of each round, so that
    /// a round slowed down as a whole by the machine counts as one ordinary ratio.
    var ratio: Double {
        Statistics.median(zip(validations, scans).map { $0.milliseconds / $1.milliseconds })
    }

    /// How many times format-only validation the whole validation takes, so what the policy rules add
    /// (1.25 is 25% more): the median of the ratios of each round, like ``ratio``.
    var policyRatio: Double {
        Statistics.median(zip(validations, formatOnlyValidations).map { $0.milliseconds / $1.milliseconds })
    }

    /// How many times the whole validation compilation takes, so what compiling and writing the policy
    /// add (1.20 is 20% more): the median of the ratios of each round, like ``ratio``.
    var compileRatio: Double {
        Statistics.median(zip(compilations, validations).map { $0.milliseconds / $1.milliseconds })
    }

    /// The median validation time per product, in microseconds.
    var validateMicrosecondsPerProduct: Double {
        validateMilliseconds * 1000 / Double(products)
    }

    /// The largest peak resident set size of any validation, in MiB.
    var validatePeakMiB: Double {
        Self.largestPeakMiB(of: validations)
    }

    /// The largest peak resident set size of any format-only validation, in MiB.
    var formatOnlyPeakMiB: Double {
        Self.largestPeakMiB(of: formatOnlyValidations)
    }

    /// The largest peak resident set size of any compilation, in MiB.
    var compilePeakMiB: Double {
        Self.largestPeakMiB(of: compilations)
    }

    /// The largest peak resident set size of any bare scan, in MiB.
    var scanPeakMiB: Double {
        Self.largestPeakMiB(of: scans)
    }

    /// The largest `ru_maxrss` among `measurements`, in MiB; 0 when there are none.
    private static func largestPeakMiB(of measurements: [ChildOutcome]) -> Double {
        Double(measurements.map(\.peakResidentKiB).max() ?? 0) / 1024
    }
}
