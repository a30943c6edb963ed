/// The measurements of one catalog size, and what the report makes of them.
struct SizeResult: Sendable {
    /// The number of products in the catalog.
    let products: Int
    /// The catalog's size in bytes.
    let fileBytes: Int
    /// The measured bare scans, in order; the warm-up is not among them.
    let scans: [ChildProcess.Measurement]
    /// The measured validations, in order, each paired with the scan at the same index.
    let validations: [ChildProcess.Measurement]

    /// The median wall time of the bare scan, in milliseconds.
    var scanMilliseconds: Double {
        Statistics.median(scans.map(\.milliseconds))
    }

    /// The median wall time of validation, in milliseconds.
    var validateMilliseconds: Double {
        Statistics.median(validations.map(\.milliseconds))
    }

    /// How many times the bare scan validation takes: the median of the ratios of each pair, so that
    /// a pair slowed down as a whole by the machine counts as one ordinary ratio.
    var ratio: Double {
        Statistics.median(zip(validations, scans).map { $0.milliseconds / $1.milliseconds })
    }

    /// The median validation time per product, in microseconds.
    var validateMicrosecondsPerProduct: Double {
        validateMilliseconds * 1000 / Double(products)
    }

    /// The largest peak resident set size of any validation, in MiB.
    var validatePeakMiB: Double {
        Double(validations.map(\.peakResidentKiB).max() ?? 0) / 1024
    }

    /// The largest peak resident set size of any bare scan, in MiB.
    var scanPeakMiB: Double {
        Double(scans.map(\.peakResidentKiB).max() ?? 0) / 1024
    }
}
