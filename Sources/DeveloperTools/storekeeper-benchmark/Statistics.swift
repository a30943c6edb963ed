/// The summary statistics of the benchmark: medians, which one slow run from a noisy machine does not move.
enum Statistics {
    /// The median of `values`: the middle one, or the mean of the two middle ones when there is an even number.
    ///
    /// - Precondition: `values` is not empty.
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "the median of no values")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
