import StorekeeperChildProcess

/// The measurements of one catalog in which every product makes the same mistake (`prise:` for
/// `price:`), and what the report makes of them. The lists hold one measurement per round, in order.
struct TypoResult: Sendable {
    /// The number of products in the catalog.
    let products: Int
    /// The catalog's size in bytes.
    let fileBytes: Int
    /// The measured bare scans.
    let scans: [ChildOutcome]
    /// The measured validations (`storekeeper validate`, which exits 1 with an error per product).
    let validations: [ChildOutcome]

    /// The median wall time of the bare scan, in milliseconds.
    var scanMilliseconds: Double {
        Statistics.median(scans.map(\.milliseconds))
    }

    /// The median wall time of validation, in milliseconds.
    var validateMilliseconds: Double {
        Statistics.median(validations.map(\.milliseconds))
    }

    /// How many times the bare scan validation takes: the median of the ratios of each round.
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
}
