/// SplitMix64: a small, fast generator whose numbers depend on the seed
/// alone, on every machine and toolchain.
///
/// The standard library's random APIs are avoided on purpose: how they map
/// raw bits to a range may change between Swift versions, and a seed must
/// name the same transaction stream in the reference run and in every
/// relaunch of the crashed one.
struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is not positive.
    mutating func next(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        // The slight bias of a modulo does not matter for a drill; stability does.
        return Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.count)
    }

    /// A fraction in `0..<1`, from the top 53 bits (a `Double`'s precision).
    mutating func nextFraction() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// Whether an event of probability `probability` happens this time.
    mutating func chance(_ probability: Double) -> Bool {
        nextFraction() < probability
    }
}
