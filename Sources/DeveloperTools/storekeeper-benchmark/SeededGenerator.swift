/// A 64-bit linear congruential generator with a fixed seed: the same numbers on every machine and toolchain.
///
/// The standard library's random APIs are avoided on purpose: how they map raw bits to a range may
/// change between Swift versions, and a generated catalog must stay byte-for-byte the same.
struct SeededGenerator: Sendable {
    private var state: UInt64

    /// Creates a generator that starts from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next number in `0..<bound`.
    ///
    /// Uses the high 32 bits of the state (Knuth's MMIX multiplier and increment): the low bits of an LCG are weak.
    ///
    /// - Precondition: `bound` is positive.
    mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 32) % UInt64(bound))
    }
}
