/// The measurements of `storekeeper-benchmark lookups`, and what the report makes of them.
///
/// Each loop's list holds one time per round, in order: the times at the same index come from the
/// same round. The warm-up is not among them.
struct LookupResult: Sendable {
    /// The number of products in the catalog.
    let products: Int
    /// The number of transactions each loop dispatched per round.
    let transactions: Int
    /// The size of the generated catalog, in bytes.
    let catalogBytes: Int
    /// The number of distinct plans in the compiled policy.
    let plans: Int
    /// The one-off steps before the lookups, one run each.
    let setup: LookupWorkload.Setup
    /// Nanoseconds per transaction, per loop, one per round.
    let nanoseconds: [LookupVariant: [Double]]

    /// The median time per transaction of `variant`, in nanoseconds.
    func median(_ variant: LookupVariant) -> Double {
        Statistics.median(nanoseconds[variant] ?? [])
    }

    /// The time per transaction of `variant` in its fastest round, in nanoseconds: the round the machine
    /// disturbed least.
    func fastest(_ variant: LookupVariant) -> Double {
        nanoseconds[variant]?.min() ?? 0
    }

    /// The time per transaction of `variant` in its slowest round, in nanoseconds.
    func slowest(_ variant: LookupVariant) -> Double {
        nanoseconds[variant]?.max() ?? 0
    }

    /// How many times the baseline `variant` takes: the median of the ratios of each round.
    func ratio(_ variant: LookupVariant) -> Double {
        Statistics.median(zip(nanoseconds[variant] ?? [], nanoseconds[.baseline] ?? []).map { $0 / $1 })
    }

    /// What `variant` adds to the baseline per transaction, in nanoseconds: the median of the
    /// differences of each round.
    func added(_ variant: LookupVariant) -> Double {
        Statistics.median(zip(nanoseconds[variant] ?? [], nanoseconds[.baseline] ?? []).map { $0 - $1 })
    }
}
