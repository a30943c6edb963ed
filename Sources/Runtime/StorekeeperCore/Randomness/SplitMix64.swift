/// SplitMix64: a small, fast generator whose numbers depend on the seed
/// alone, on every machine and toolchain. The one seeded generator of the
/// package: the simulated store, the crash drill and the tests draw from it.
///
/// The standard library's random APIs are avoided on purpose where a seed
/// must reproduce a run: how they map raw bits to a range may change between
/// Swift versions. Use ``next(below:)`` and ``nextFraction()`` for that;
/// conformance to `RandomNumberGenerator` is for property tests, which only
/// need the bits to be reproducible on one toolchain.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's output function: 64 bits well mixed from `value`, the
    /// same on every platform (a one-off number from a seed, say).
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is not above 1. A modulo's
    /// slight bias does not matter for simulations and tests; stability does.
    public mutating func next(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.count)
    }

    /// A fraction in `0..<1`, from the top 53 bits (a `Double`'s precision).
    package mutating func nextFraction() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// Whether an event of probability `probability` happens this time.
    public mutating func chance(_ probability: Double) -> Bool {
        nextFraction() < probability
    }

    /// The next byte.
    package mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: next())
    }
}
